"""dpcheck's tests, one folder per layer of the engine (docs/architecture.md): ``core``, ``model``, ``notions``,
``solve`` (with ``backends`` and ``routes``), ``derive``, ``report``, ``graph``, ``api``, then ``theorems``
(the sources' claims), ``selftest`` and ``cli``. ``test_architecture.py`` checks the layers themselves and
that every engine module is imported by a test of its layer's folder. Slow tests are marked ``slow``."""
