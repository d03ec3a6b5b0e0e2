"""Privacy notions and claims. Here, the framework: the ``Notion`` class written once over an abstract
number type (``base``), claims between notions (``claims``), listing records (``info``), parameter
vocabulary, terms of a prior through kernels, exact PML of finite kernels (``leakage``) and certified
decisions over a continuum (``continuum``). In rooms above it, in this import order: ``families/`` (the
established families), ``zoo/`` (notions beyond the sources), ``listed/`` (the catalogue users name
notions from). Imports core and model only."""
