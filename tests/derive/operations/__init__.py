"""Tests of operations on mechanisms: composition and subsampling."""
