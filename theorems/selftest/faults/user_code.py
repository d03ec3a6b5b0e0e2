"""Seeded faults of the limits on a user's own notion (FILE.py:NAME): its code runs under the command's limits."""
from __future__ import annotations

from theorems.selftest.mutation import _E

LIMITS = "test:tests/cli/test_user_code_limits.py::"


_E("symbolic.graph.user:guarded", "account = None if limit is None else Account(limit, name, where)", "account = None",
   "user-code.no-limit", "a user's notion runs with no limit on its code: a body that never returns hangs the command",
   LIMITS + "test_the_limit_counts_processor_time_and_restores_the_timers",
   LIMITS + "test_a_graph_pair_whose_notion_reaches_its_limit_is_unknown")
