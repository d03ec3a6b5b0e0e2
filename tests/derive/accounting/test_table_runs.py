"""Runs of a finite table: the certified enclosure of δ(ε) contains the exact value the composition engine
derives for the same file (T ≤ 5, exact arithmetic), and is narrow."""
from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from symbolic.derive.accounting.run import account
from symbolic.derive.accounting.stages import stages_from_document
from symbolic.derive.accounting.table_loss import TableStepLoss
from symbolic.derive.level import derive_level

EX = Path(__file__).resolve().parents[3] / "docs" / "examples"
RR_ONE = json.loads((EX / "rr-one.json").read_text())
ASYMMETRIC = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2], "rows": {"0": ["1/2", "1/2", "0"],
                                                                      "1": ["1/8", "1/4", "5/8"]}}


@pytest.mark.parametrize("table, steps, eps", [(RR_ONE, 3, "1/10"), pytest.param(RR_ONE, 5, "0", marks=pytest.mark.slow),
                                              (ASYMMETRIC, 4, "1/2")])
def test_the_enclosure_contains_the_composition_engines_exact_delta(table, steps, eps):
    doc = {"kind": "composition", "times": steps, "of": {"kind": "subsampled", "sampling": "poisson", "rate": "1/4",
                                                         "of": table}}
    exact = derive_level("approx-dp", doc, params={"eps": eps})
    lo, hi = account(stages_from_document(doc), epsilon=F(eps), precision=F(1, 10 ** 4)).delta
    assert exact.ok and lo <= exact.enclosure[0] and exact.enclosure[1] <= hi
    assert hi - lo <= hi / 1000


def test_an_output_the_absent_row_never_gives_is_an_infinite_loss():
    import sympy as sp
    step = TableStepLoss(tuple(sp.Rational(x) for x in ("1/2", "1/2", "0")), tuple(sp.Rational(x) for x in ("1/8", "1/4", "5/8")),
                         (1, 4), "remove")
    above, _ = step.tails(1000)
    assert float(above.mid()) == pytest.approx(5 / 32)        # q·5/8 of the mixture, at loss +∞
