"""A counterexample in the table format that ``dpcheck eval`` reads, and the commands that re-check it.

A refutation is only as good as its re-check: these files let anyone evaluate the counterexample's
tables again, outside the run that found it, with the same exact evaluation ``dpcheck eval`` does.
Each mechanism table becomes ``{"n", "domain", "outputs", "rows"}`` (rows aligned with the outputs),
each population ``{"a,b": "p"}``: exactly what :func:`~symbolic.model.table_file.mechanism_from_json`
and :func:`~symbolic.model.population.population_from_json` read back.

>>> import sympy as sp
>>> from symbolic.core.tables import MechTable
>>> from symbolic.model.table_file import mechanism_from_json
>>> tab = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(0), sp.Integer(1)), (1,): (sp.Integer(1), sp.Integer(0))})
>>> table_json(tab)
{'n': 1, 'domain': [0, 1], 'outputs': [0, 1], 'rows': {'0': ['0', '1'], '1': ['1', '0']}}
>>> mechanism_from_json(table_json(tab))[(1,)]
Dist({0: 1, 1: 0})
"""
from __future__ import annotations

import shlex

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.core.tables import MechTable
from symbolic.report.results import pop_json, table_json


def file_label(name: str) -> str:
    """A file-name-safe label of a mechanism or population name (``P'`` → ``P2``)."""
    return name.replace("'", "2").replace("<", "").replace(">", "")


def counterexample_files(cx) -> dict:
    """``{label: (kind, document)}`` for every plain mechanism table (kind "mechanism") and every
    population (kind "population") of the counterexample; a family or a kernel has no such format
    and is left out (the JSON record and the text still show it).

    >>> import sympy as sp
    >>> from symbolic.core.tables import MechTable
    >>> from symbolic.core.verdicts import Counterexample, Sizes
    >>> half = sp.Rational(1, 2)
    >>> tab = MechTable(1, (0, 1), (0, 1), {(0,): (half, half), (1,): (1 - half / 2, half / 2)})
    >>> cx = Counterexample(Sizes(1, 2, 2), {"A": tab}, {}, {"E": sp.Integer(2)}, "FreeLunchPrivacy(E): …")
    >>> counterexample_files(cx)["A"][0]
    'mechanism'
    """
    out = {}
    for name, tab in cx.mechanisms.items():
        if isinstance(tab, MechTable):
            out[file_label(name)] = ("mechanism", table_json(tab))
    for name, pop in cx.populations.items():
        out[file_label(name)] = ("population", pop_json(pop))
    return out


def _value_args(inst, parameters) -> list | None:
    """``--param NAME=VALUE`` for a notion instance at the counterexample's parameter values, or
    None when a value is not a plain number ``eval`` reads."""
    env = {sp.Symbol(k, real=True): v for k, v in parameters.items()}
    args = []
    for name, expr in inst.param_values().items():
        v = sp.sympify(expr).subs(env)   # exactly: nsimplify may round a large rational to a nearby simpler one
        if v.free_symbols:
            return None
        args.append(f"--param {shlex.quote(f'{name}={expr_text(v)}')}")
    return args


def recheck_commands(imp, cx, paths: dict, names: dict | None = None) -> list:
    """``(notion instance, what it should do, command)`` for each notion of the implication ``imp``
    that ``dpcheck eval`` can evaluate on the saved files (one mechanism, applied to the free mechanism
    itself): every hypothesis should hold, the conclusion should fail. ``paths``: label → file name;
    ``names``: how ``eval`` is to name a notion (e.g. ``mine.py:Floor`` for a user's own), by its name.

    >>> import sympy as sp
    >>> from symbolic.core.tables import MechTable
    >>> from symbolic.core.verdicts import Counterexample, Sizes
    >>> from symbolic.notions.claims import E, Implies
    >>> from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
    >>> tab = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Integer(0), sp.Integer(1))})
    >>> cx = Counterexample(Sizes(1, 2, 2), {"A": tab}, {}, {"E": sp.Integer(2)}, "PureDP(E): …")
    >>> imp = Implies(PureDP(E.symbol), FreeLunchPrivacy(E.symbol))
    >>> for inst, should, cmd in recheck_commands(imp, cx, {"A": "cx-A.json"}):
    ...     print(cmd, "#", should)
    dpcheck eval PureDP --mechanism cx-A.json --param E=2 # holds
    dpcheck eval FreeLunchPrivacy --mechanism cx-A.json --param E=2 # fails
    """
    out = []
    mech = [label for label, (kind, _) in counterexample_files(cx).items() if kind == "mechanism"]
    if len(mech) != 1:
        return out
    for inst, should in [(h, "holds") for h in imp.hypotheses] + [(imp.conclusion, "fails")]:
        nt = inst.notion
        if inst.on is not None or nt.arity != 1 or (nt.population in ("all", "product") and nt.sufficient is None):
            continue
        args = _value_args(inst, cx.parameters)
        if args is None:
            continue
        pop = ""
        if nt.population == "given":
            if "P" not in paths:
                continue
            pop = f" --population {shlex.quote(paths['P'])}"
        name = shlex.quote((names or {}).get(nt.name, nt.name))
        out.append((str(inst), should, f"dpcheck eval {name} --mechanism {shlex.quote(paths[mech[0]])}{pop} "
                                       f"{' '.join(args)}"
                    .rstrip()))
    return out
