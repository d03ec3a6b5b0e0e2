"""``python -m theorems.selftest``: the self-test's command line (:func:`theorems.selftest.runner.main`)."""
import sys

from theorems.selftest.runner import main

sys.exit(main())
