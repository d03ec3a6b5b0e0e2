"""Verdicts are values: Proved, Refuted, Unknown, Vacuous, Derived.

Each renders itself in Jupyter: ``_repr_html_`` (a compact snippet, the verdict word coloured, a
refutation's tables; every piece of user text escaped) and ``_repr_latex_``.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field

from symbolic.core.tables import database_key

_COLOURS = {"proved": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700", "vacuous": "#8250df",
            "derived": "#0969da"}
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                  "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}"}


def esc(x) -> str:
    """``str(x)`` escaped for HTML (text and attribute values)."""
    return html.escape(str(x), quote=True)


def latex_text(x) -> str:
    """``str(x)`` as the argument of ``\\text{...}``: LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(x))


def latex_math(x) -> str:
    """A formula in LaTeX: sympy's rendering of a sympy object, else the escaped text."""
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if hasattr(x, "free_symbols") and hasattr(x, "subs"):
        import sympy as sp
        return sp.latex(x)
    return rf"\text{{{latex_text(x)}}}"


def word_html(name: str, text: str | None = None) -> str:
    """The verdict word (or ``text``) in bold, in the verdict's colour."""
    return f'<b style="color:{_COLOURS.get(name, "#57606a")}">{esc(name if text is None else text)}</b>'


def _sizes_html(s, rel="≤") -> str:
    return f"n {rel} {s.n}, |𝒟| {rel} {s.domain}, |𝒪| {rel} {s.outputs}"


def _sizes_latex(s, rel=r"\le ") -> str:
    return rf"n{rel}{s.n}, |\mathcal D|{rel}{s.domain}, |\mathcal O|{rel}{s.outputs}"


def table_html(tab, caption: str) -> str:
    """A probability table (a mechanism's rows: databases × outputs; a population's: one column),
    any object with ``table()``, or a family ``{key: rows}``, as an escaped HTML table."""
    tab = tab.table() if hasattr(tab, "table") else tab
    cap = f"<caption>{esc(caption)}</caption>"
    if hasattr(tab, "outputs") and hasattr(tab, "rows"):
        head = "".join(f"<th>{esc(o)}</th>" for o in tab.outputs)
        body = "".join(f"<tr><th>{esc(database_key(d))}</th>" + "".join(f"<td>{esc(p)}</td>" for p in row) + "</tr>"
                       for d, row in tab.rows.items())
        return f'<table class="dpcheck-table">{cap}<tr><th>d \\ o</th>{head}</tr>{body}</table>'
    if hasattr(tab, "probs"):
        body = "".join(f"<tr><th>{esc(database_key(d))}</th><td>{esc(p)}</td></tr>" for d, p in tab.probs.items())
        return f'<table class="dpcheck-table">{cap}<tr><th>d</th><th>Pr</th></tr>{body}</table>'
    if isinstance(tab, dict):
        return "".join(table_html(v, f"{caption}<{k}>") for k, v in tab.items() if k is not None)
    if isinstance(tab, (list, tuple)):
        cells = "".join(f"<td>{esc(p)}</td>" for p in tab)
        return f'<table class="dpcheck-table">{cap}<tr>{cells}</tr></table>'
    return f"<div>{esc(caption)}: {esc(tab)}</div>"


def table_latex(tab) -> str:
    """A mechanism's table (databases × outputs) as a LaTeX array; '' for other shapes."""
    tab = tab.table() if hasattr(tab, "table") else tab
    if not (hasattr(tab, "outputs") and hasattr(tab, "rows")):
        return ""
    head = r"d \backslash o & " + " & ".join(latex_math(o) for o in tab.outputs)
    rows = [rf"\text{{{latex_text(database_key(d))}}} & " + " & ".join(latex_math(p) for p in row) for d, row in tab.rows.items()]
    return (rf"\begin{{array}}{{c|{'c' * len(tab.outputs)}}}" + head + r"\\ \hline " + r"\\ ".join(rows)
            + r"\end{array}")


def _params_html(params: dict) -> str:
    return ", ".join(f"{esc(k)} = {esc(v)}" for k, v in params.items())


def _params_latex(params: dict) -> str:
    return ", ".join(rf"\mathrm{{{latex_text(k)}}} = {latex_math(v)}" for k, v in params.items())


def _box(inner: str) -> str:
    return f'<div class="dpcheck-verdict">{inner}</div>'


@dataclass(frozen=True)
class Sizes:
    """Sizes at which a claim is checked: n data points, |𝒟| values, |𝒪| outputs.

    >>> s = Sizes(1, 2, 3)
    >>> str(s), s.as_tuple(), s.as_dict()["outputs"]
    ('n=1, |D|=2, |O|=3', (1, 2, 3), 3)
    >>> print(s._repr_latex_())
    $n=1, |\\mathcal D|=2, |\\mathcal O|=3$
    """

    n: int
    domain: int
    outputs: int

    def __post_init__(self):
        from symbolic.core.tables import check_sizes
        check_sizes(self.n, self.domain, self.outputs)

    def as_tuple(self):
        return (self.n, self.domain, self.outputs)

    def as_dict(self):
        return {"n": self.n, "domain": self.domain, "outputs": self.outputs}

    def __str__(self):
        return f"n={self.n}, |D|={self.domain}, |O|={self.outputs}"

    def _repr_html_(self):
        return esc(_sizes_html(self, "="))

    def _repr_latex_(self):
        return f"${_sizes_latex(self, '=')}$"


@dataclass(frozen=True)
class Counterexample:
    """Exact witnesses: mechanisms (name -> Mechanism, or family/kernel tables), populations
    (name -> Population), parameter values, and which instance of which notion fails.

    ε-DP at 2ε does not give ε-DP; the counterexample's table satisfies the hypothesis and not the
    conclusion at its parameter value, in exact arithmetic:

    >>> from symbolic.api import E, PureDP, Settings, check_implies, evaluate
    >>> res = check_implies(PureDP(2 * E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> cx = res.verdict.counterexample
    >>> cx.sizes, cx.implication
    (Sizes(n=1, domain=2, outputs=2), 'PureDP(2*E) ⇒ PureDP(E)')
    >>> E0, A = cx.parameters["E"], cx.mechanisms["A"]
    >>> evaluate(PureDP, A, E=2 * E0), evaluate(PureDP, A, E=E0)
    (True, False)
    """

    sizes: Sizes
    mechanisms: dict
    populations: dict
    parameters: dict
    violated: str
    implication: str = ""

    def _repr_html_(self):
        head = (f"<div>counterexample at {esc(_sizes_html(self.sizes, '='))}"
                + (f" to <code>{esc(self.implication)}</code>" if self.implication else "") + "</div>")
        fails = f"<div>fails: <code>{esc(self.violated)}</code></div>" if self.violated else ""
        params = f"<div>parameters: {_params_html(self.parameters)}</div>" if self.parameters else ""
        tables = "".join(table_html(t, f"mechanism {k}") for k, t in self.mechanisms.items())
        tables += "".join(table_html(t, f"population {k}") for k, t in self.populations.items())
        return head + fails + params + tables

    def _repr_latex_(self):
        params = rf",\ {_params_latex(self.parameters)}" if self.parameters else ""
        tables = "".join(rf",\ \mathrm{{{latex_text(k)}}} = {table_latex(t)}" for k, t in self.mechanisms.items()
                         if table_latex(t))
        return rf"$\text{{counterexample at }} {_sizes_latex(self.sizes, '=')}{params}{tables}$"


@dataclass(frozen=True)
class Witness:
    """Exact values at which a claim's hypotheses all hold (re-verified exactly): the proof of the
    claim at ``sizes`` is not a proof of nothing.

    >>> from symbolic.api import E, PureDP, Settings, check_implies, evaluate
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> w = res.verdict.witness
    >>> evaluate(PureDP, w.mechanisms["A"], E=w.parameters["E"])
    True
    """

    sizes: Sizes
    mechanisms: dict
    populations: dict
    parameters: dict
    implication: str = ""


@dataclass(frozen=True)
class Obligation:
    """One query the proof rests on: the conjunction of ``assertions`` (solver terms) was found
    unsatisfiable. For a CEGIS proof the ∀𝒫 hypotheses appear instantiated at the populations the
    refinement used, so that the unsatisfiability of this query alone implies the claim at ``sizes``.

    >>> from symbolic.api import E, PureDP, Settings, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> [(ob.label, ob.sizes) for ob in res.verdict.obligations]
    [('PureDP(E) ⇒ PureDP(2*E) at n=1, |D|=2, |O|=2, query 1', Sizes(n=1, domain=2, outputs=2))]
    """

    label: str
    sizes: Sizes
    assertions: tuple = field(repr=False, compare=False)


@dataclass(frozen=True)
class Proved:
    """No counterexample exists at any of the sizes in ``sizes_proved``, for every parameter
    value in range (parameters symbolic, not sampled). ``bounds`` is the largest of them.

    ``vacuity``: "satisfiable" when ``witness`` shows the hypotheses can hold together at the proved
    sizes, "unknown" when no witness was established, None when there is nothing to check (a part
    proved without a solver query). ``obligations``: the queries the proof rests on, for a second
    solver or an export.

    ε-DP implies 2ε-DP, for every E ≥ 1 at once (E is a symbol, not sampled):

    >>> from symbolic.api import E, PureDP, Settings, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> v = res.verdict
    >>> v.name, v.bounds, v.vacuity
    ('proved', Sizes(n=1, domain=2, outputs=2), 'satisfiable')
    >>> print(v._repr_latex_())
    $\\text{proved within } n\\le 1, |\\mathcal D|\\le 2, |\\mathcal O|\\le 2$
    """

    bounds: Sizes
    sizes_proved: tuple
    certificate: dict = field(default_factory=dict)
    vacuity: str | None = None
    witness: Witness | None = None
    obligations: tuple = field(default=(), repr=False, compare=False)
    name = "proved"

    @property
    def note(self):
        return f"proved within bounds ({self.bounds}; {len(self.sizes_proved)} sizes)"

    def _repr_html_(self):
        vac = {"satisfiable": "; the hypotheses can hold together (witness found)",
               "unknown": "; whether the hypotheses can hold together is unknown"}.get(self.vacuity, "")
        return _box(f"{word_html(self.name)} within {esc(_sizes_html(self.bounds))} "
                    f"({len(self.sizes_proved)} size{'s' * (len(self.sizes_proved) != 1)}){esc(vac)}")

    def _repr_latex_(self):
        return rf"$\text{{proved within }} {_sizes_latex(self.bounds)}$"


@dataclass(frozen=True)
class Vacuous:
    """The solver found no counterexample, but the hypotheses cannot hold together at ``sizes``
    (or a fixed parameter lies outside its range): the 'proof' is a proof of nothing.

    >>> from symbolic.api import E, Notion, PureDP, Settings, check_implies
    >>> Never = Notion("Never", (), lambda ops, A, P=None: ops.le(1, 0))
    >>> res = check_implies(Never(), PureDP(E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> res.verdict.name, res.verdict.sizes
    ('vacuous', Sizes(n=1, domain=2, outputs=2))
    """

    reason: str
    sizes: Sizes | None = None
    name = "vacuous"

    def _repr_html_(self):
        at = f" at {esc(_sizes_html(self.sizes, '='))}" if self.sizes is not None else ""
        return _box(f"{word_html(self.name)}{at}: {esc(self.reason)}")

    def _repr_latex_(self):
        at = rf"\text{{ at }} {_sizes_latex(self.sizes, '=')}" if self.sizes is not None else ""
        return rf"$\text{{vacuous}}{at}\text{{: {latex_text(self.reason)}}}$"


@dataclass(frozen=True)
class Refuted:
    """A counterexample, re-verified by exact evaluation of the notions in sympy. ``verified_exactly``
    False means the exact check did not confirm it (the claim's verdict is then not definite);
    ``minimal``: no counterexample exists at smaller sizes.

    >>> from symbolic.api import E, PureDP, Settings, check_implies
    >>> res = check_implies(PureDP(2 * E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> v = res.verdict
    >>> v.name, v.verified_exactly, v.minimal, v.counterexample.violated.startswith("PureDP(E): ")
    ('refuted', True, True, True)

    In Jupyter it shows the counterexample's tables (``_repr_html_``).
    """

    counterexample: Counterexample
    verified_exactly: bool
    minimal: bool
    sizes_searched: tuple = ()
    note: str = ""
    name = "refuted"

    def _repr_html_(self):
        how = ("verified exactly" if self.verified_exactly else "NOT verified exactly") + (
            ", minimal" if self.minimal else "")
        note = f"<div>{esc(self.note)}</div>" if self.note else ""
        return _box(f"{word_html(self.name)} ({how}){note}{self.counterexample._repr_html_()}")

    def _repr_latex_(self):
        cx = self.counterexample
        how = "" if self.verified_exactly else " (not verified exactly)"
        return rf"$\text{{refuted{how}: }}" + cx._repr_latex_()[1:]


@dataclass(frozen=True)
class Unknown:
    """No definite verdict: ``reason`` says why (a time-out, a solver's unknown, a counterexample
    that failed exact re-verification); ``sizes_proved``: the sizes proved before that.

    >>> u = Unknown("time-out after 5 s at n=2, |D|=2, |O|=2")
    >>> print(u.name, u._repr_latex_())
    unknown $\\text{unknown: time-out after 5 s at n=2, |D|=2, |O|=2}$
    """

    reason: str
    sizes_proved: tuple = ()
    name = "unknown"

    def _repr_html_(self):
        done = f" (proved at {len(self.sizes_proved)} smaller sizes)" if self.sizes_proved else ""
        return _box(f"{word_html(self.name)}: {esc(self.reason)}{done}")

    def _repr_latex_(self):
        return rf"$\text{{unknown: {latex_text(self.reason)}}}$"


@dataclass(frozen=True)
class Derived:
    """A formula computed by sympy from a mechanism, checked at sample points: ``checks`` holds
    (text, passed) pairs; a claim whose checks do not all pass is reported unknown.

    >>> import sympy as sp
    >>> d = Derived(sp.log(3), "binary randomized response at E = 3", (("exact at E = 3", True),))
    >>> print(d.name, d._repr_latex_())
    derived $\\log{\\left(3 \\right)}\\quad\\text{(binary randomized response at E = 3)}$
    """

    formula: object
    assumptions: str
    checks: tuple = ()
    extras: dict = field(default_factory=dict)
    name = "derived"

    def _repr_html_(self):
        passed = sum(1 for _, ok in self.checks if ok)
        return _box(f"{word_html(self.name)}: <code>{esc(self.formula)}</code>"
                    f"<div>assuming {esc(self.assumptions)}</div>"
                    f"<div>checks passed: {passed} of {len(self.checks)}</div>")

    def _repr_latex_(self):
        return rf"${latex_math(self.formula)}\quad\text{{({latex_text(self.assumptions)})}}$"
