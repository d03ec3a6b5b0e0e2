"""One module per `dpcheck` command (``audit_from`` is ``audit --from``); importing a module adds its
command to the group of :mod:`theorems.cli.app`. :mod:`theorems.cli.main` imports them in the order
``dpcheck --help`` lists them."""
