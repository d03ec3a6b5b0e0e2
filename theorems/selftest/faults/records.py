"""Seeded faults of reading records back: an earlier run's audit document (`dpcheck audit --from`), one
engine or command-line edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import T, _E

FROM_FILE = T + "tests/cli/test_report_from_file.py::"

_E("theorems.cli.commands.audit_from:load", "    check_catalogue(path, docs, registry)\n", "",
   "from-file.source-says-trusted", "an audit record's source_says and parts' expectations are read from the file",
   FROM_FILE + "test_what_a_source_says_is_read_from_the_catalogue_not_the_file")

_E("theorems.cli.commands.audit_from:reverify", 'cx["violated"] = violated', "pass",
   "from-file.violated-trusted", "a re-verified counterexample's violated sentence is printed from the file",
   FROM_FILE + "test_the_violated_sentence_is_the_re_verifications_not_the_files")
