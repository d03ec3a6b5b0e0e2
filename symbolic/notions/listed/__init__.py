"""The listing of notions users name: the records of the established families (``listing``) and the
catalogue that gathers every family's ``ENTRIES`` and looks notions up by ID or name (``catalog``), for
`dpcheck notions` and the implication graph. The top room of :mod:`symbolic.notions`: it imports the
families and the zoo; nothing in them imports it."""
