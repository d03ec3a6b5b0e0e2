"""The notion base class, claims, and the library of notions, one module per family."""
