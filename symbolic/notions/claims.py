"""Claims: implications between notions (and properties of constructions), stated once.

A claim is a list of :class:`Implication` parts, each with what the source expects
(holds / fails). ``Implies(A, B)`` and ``NotImplies(A, B)`` are one part; ``Equivalent(A, B)``
is two. The verdict of a claim concerns its implications: ``proved`` when every part is
proved within bounds, ``refuted`` when some part has a counterexample. For a ⇏ claim the
source expects ``refuted``.

``E`` is the claim parameter E = e^ε ≥ 1 (a :class:`Param`); ``EPS_PARAMS`` = ``(E,)`` is the
default parameter list of a claim:

>>> from symbolic.api import *
>>> E.range_text(), E.symbol, EPS_PARAMS == (E,)
('1 ≤ E', E, True)
>>> str(Implies(PureDP(E.symbol), PureDP(2 * E.symbol)))
'PureDP(E) ⇒ PureDP(2*E)'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp

from symbolic.core.errors import InvalidSize
from symbolic.core.exact import expr_text
from symbolic.core.ops import exact_sign
from symbolic.core.ranges import describe, narrowed, problems
from symbolic.notions.base import Notion, NotionInstance
from symbolic.core.verdicts import Sizes


@dataclass(frozen=True)
class Param:
    """A claim parameter: a real symbol with a range, inclusive unless ``lower_strict`` /
    ``upper_strict`` makes that end open: ``Param("delta", lower=0, lower_strict=True, upper=1)``
    is 0 < δ ≤ 1.

    >>> from symbolic.api import *
    >>> delta = Param("delta", lower=0, lower_strict=True, upper=1)
    >>> delta.range_text(), delta.symbol, delta.contains(0)
    ('0 < delta ≤ 1', delta, False)
    """

    name: str
    lower: object = None
    upper: object = None
    lower_strict: bool = False
    upper_strict: bool = False
    value: object = None    # an exact value the parameter is fixed at (see :meth:`fixed_at`)

    @property
    def symbol(self):
        return sp.Symbol(self.name, real=True)

    def range_text(self) -> str:
        if self.value is not None:
            return f"{self.name} = {expr_text(self.value)}"
        return describe(self.name, self.lower, self.upper, self.lower_strict, self.upper_strict)

    def range_problems(self, value) -> list:
        """Why an exact value lies outside the range (empty if inside); for a fixed parameter, why
        it is not the fixed value (decided exactly, by certified intervals for irrational numbers)."""
        if self.value is not None:
            value = sp.sympify(value)
            if value.free_symbols or exact_sign(value - self.value) == 0:
                return []
            return [f"{self.name}={expr_text(value)} is not the fixed value {expr_text(self.value)}"]
        return problems(self.name, value, self.lower, self.upper, self.lower_strict, self.upper_strict)

    def fixed_at(self, value) -> "Param":
        """This parameter fixed at one exact number, which must lie in its range. A rational value
        is the range [v, v]; an irrational one (√2, e^(1/2)) keeps the exact value for exact
        evaluation and gives the solver a certified rational enclosure [lo, hi] ∋ v (a proof over
        the enclosure covers v; a counterexample counts only once re-verified exactly at v).

        >>> E.fixed_at(3).range_text(), E.fixed_at(sp.exp(sp.Rational(1, 2))).range_text()
        ('E = 3', 'E = exp(1/2)')
        >>> E.fixed_at(sp.Rational(1, 2))
        Traceback (most recent call last):
        ...
        symbolic.core.errors.InvalidParameter: E=1/2 is outside its range 1 ≤ E
        """
        from dataclasses import replace

        from symbolic.core.errors import InvalidParameter
        v = sp.sympify(value)
        if v.free_symbols or not v.is_number:
            raise InvalidParameter(f"{self.name} can be fixed at a number only, not {expr_text(v)}")
        wrong = self.range_problems(v)
        if wrong:
            raise InvalidParameter(wrong[0])
        if v.is_Rational:
            return replace(self, lower=v, upper=v, lower_strict=False, upper_strict=False, value=v)
        from symbolic.core.certified import enclose
        ball = enclose(v, ENCLOSURE_BITS)
        lower, ls, upper, us = narrowed(self.lower, self.lower_strict, self.upper, self.upper_strict,
                                        ball.lower(), False, ball.upper(), False)
        return replace(self, lower=lower, upper=upper, lower_strict=ls, upper_strict=us, value=v)

    def contains(self, value) -> bool:
        return not self.range_problems(value)

    def assuming(self, lo=None, lo_strict=False, hi=None, hi_strict=False) -> "Param":
        """This parameter with its range narrowed to the intersection with the given one."""
        from dataclasses import replace
        if self.value is not None:  # a fixed parameter stays fixed, if the assumption allows its value
            wrong = problems(self.name, self.value, lo, hi, lo_strict, hi_strict)
            if wrong:
                from symbolic.core.errors import InvalidParameter
                raise InvalidParameter(f"{wrong[0]}, yet it is fixed at {expr_text(self.value)}")
            return self
        lower, ls, upper, us = narrowed(self.lower, self.lower_strict, self.upper, self.upper_strict,
                                        lo, lo_strict, hi, hi_strict)
        return replace(self, lower=lower, lower_strict=ls, upper=upper, upper_strict=us)


ENCLOSURE_BITS = 96   # the width of the solver's interval around an irrational fixed value: about 2^-96·|v|

E = Param("E", lower=1)
EPS_PARAMS = (E,)


def _always(ops, *mechs, P=None):
    return True


Always = Notion("True", (), _always, arity=0, summary="no hypothesis")


@dataclass(frozen=True)
class Implication:
    """hypotheses (a conjunction of notion instances) ⇒ conclusion.

    ``population``: a fixed shared population (a Population, or a function of the sizes
    returning one) for the notions relative to one 𝒫; ``None`` leaves it free (∀𝒫).
    ``mechanisms``: fixed mechanisms for free names (a function of the sizes, or a dict).
    ``parameters``: fixed parameter values for this part.

    >>> from symbolic.api import *
    >>> imp = Implication((PureDP(E.symbol),), ApproxDP(E.symbol, 0))
    >>> imp == Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)), str(imp)
    (True, 'PureDP(E) ⇒ ApproxDP(E, 0)')
    """

    hypotheses: tuple
    conclusion: NotionInstance
    expect_holds: bool = True
    population: object = None
    mechanisms: object = None
    parameters: dict = field(default_factory=dict)
    sizes: Sizes | None = None      # check only at these sizes (a source's own example)
    label: str = ""                 # shown after the implication, e.g. "the source's example"

    @property
    def instances(self) -> tuple:
        """Every notion instance of the part: the hypotheses, then the conclusion."""
        return (*self.hypotheses, self.conclusion)

    def __str__(self):
        """The part as text in sympy's syntax (``PureDP(E) ⇒ PureDP(2*E)``): the text that names it in a
        record and finds it again when a record is read back; displays tidy it
        (:func:`~symbolic.core.math_text.tidy_text`)."""
        hyp = " ∧ ".join(map(repr, self.hypotheses)) or "True"
        arrow = "⇒" if self.expect_holds else "⇏"
        return f"{hyp} {arrow} {self.conclusion!r}" + (f" [{self.label}]" if self.label else "")


def _hyps(a):
    if isinstance(a, NotionInstance):
        return (a,)
    return tuple(a)


def Implies(a, b, **kw) -> Implication:
    """The claim part "a ⇒ b", expected to hold: ``a`` a notion instance or a tuple of them (a
    conjunction), ``b`` one instance; keywords as :class:`Implication`.

    >>> from symbolic.api import *
    >>> imp = Implies((PureDP(E.symbol), PureDP(3)), ApproxDP(E.symbol, 0))
    >>> str(imp), imp.expect_holds
    ('PureDP(E) ∧ PureDP(3) ⇒ ApproxDP(E, 0)', True)
    """
    return Implication(_hyps(a), b, True, **kw)


def NotImplies(a, b, **kw) -> Implication:
    """The claim part "a ⇏ b": the source says a counterexample exists (a refutation agrees).

    >>> from symbolic.api import *
    >>> imp = NotImplies(PureDP(2 * E.symbol), PureDP(E.symbol))
    >>> res = check(Claim("x", "⇏", "(notes)", "2ε-DP ⇏ ε-DP", "fails", (imp,), sizes=Sizes(1, 2, 2),
    ...                   min_sizes=Sizes(1, 2, 2)), Settings(second_solver=False))
    >>> res.verdict.name, res.outcome
    ('refuted', 'as the source says')
    """
    return Implication(_hyps(a), b, False, **kw)


def Equivalent(a, b, **kw) -> tuple:
    """The two parts "a ⇒ b" and "b ⇒ a" (a tuple: splice it into a claim's parts).

    >>> from symbolic.api import *
    >>> [str(p) for p in Equivalent(PureDP(E.symbol), FreeLunchPrivacy(E.symbol))]
    ['PureDP(E) ⇒ FreeLunchPrivacy(E)', 'FreeLunchPrivacy(E) ⇒ PureDP(E)']
    """
    return (Implication(_hyps(a), b, True, **kw), Implication(_hyps(b), a, True, **kw))


@dataclass(frozen=True)
class Check:
    """One engine check inside a :class:`Proof`: ``implication`` with the parameters ``params`` free,
    over the size grid ``lo``..``sizes`` (``lo`` defaults to ``sizes``: one size). ``expect``: what the
    proof needs of it (default: what the implication says, ⇒ holds, ⇏ fails). See :class:`Proof`.

    >>> from symbolic.api import *
    >>> step = Check(Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)), (E,), Sizes(1, 2, 2))
    >>> step.expect_holds, step.lo
    (True, None)
    """

    implication: Implication
    params: tuple
    sizes: Sizes
    lo: Sizes | None = None
    expect: bool | None = None

    @property
    def expect_holds(self) -> bool:
        return self.implication.expect_holds if self.expect is None else self.expect


@dataclass(frozen=True)
class Fact:
    """A fact a :class:`Proof` rests on that sympy settles exactly, with no solver: an algebraic
    identity, a tightness witness, a closed form. ``compute() -> ((text, ok), ...)``; ``name`` labels
    it in the certificate.

    ``listed``: the fact is one of the claim's parts (shown with the parts, and it agrees with the
    source when every one of its checks holds). ``False`` keeps it out of the parts: it still runs
    and counts for the verdict as :class:`Proof` says, and is recorded where that verdict records it
    (the certificate, the note or the derivation).

    ``proves``: sizes at which the fact, when all its checks hold, establishes one direction of the
    claim by exact means (a sympy limit, an identity with symbolic entries): it is then a part with
    verdict proved at those sizes (``how`` says how), combined with the checks like one of them; a
    failed check makes that part unknown. See :class:`Proof` for one in use.

    >>> from symbolic.api import *
    >>> fact = Fact("E² ≥ E for E ≥ 1", lambda: (("(E-1)·E ≥ 0", True),), listed=False)
    >>> fact.compute()
    (('(E-1)·E ≥ 0', True),)
    """

    name: str
    compute: Callable
    listed: bool = True
    proves: Sizes | None = None
    how: str = "exact (sympy)"


@dataclass(frozen=True)
class Proof:
    """A claim decided through steps, stated as data; the engine runs it (:mod:`symbolic.solve.proof`).

    ``steps``: :class:`Check`, :class:`Fact` and :class:`~symbolic.notions.induction.Induction` items, run in
    order. An induction never changes the verdict: when every induction of the proof is proved and the verdict is
    ``proved``, ``every_size`` (what the inductions establish at every size, in words) makes the proof hold at every
    size, with the inductions' argument in the certificate (``all_sizes``); otherwise the certificate says why not.
    ``verdict``: how the claim's verdict comes from the steps:
      - ``"chain"``: the first ``lemmas`` checks (default: all) must be proved, else the verdict is
        unknown, naming the first that is not; the verdict combines every check; ``method`` (the glue
        between the lemmas, in words) goes into the certificate; ``claim_sizes`` (the sizes at which
        the chained argument establishes the claim itself) become its bounds. A fact that fails makes
        the verdict unknown; facts that hold are listed in the certificate.
      - ``"first"``: the verdict is the first check's; the other steps are supporting evidence,
        reported beside it (their outcome does not change the verdict).
      - ``"derived"``: the verdict is a :class:`~symbolic.core.verdicts.Derived`, for a claim whose
        result is a formula: ``derive()`` (sympy only) gives its formula, assumptions, checks and
        extras; the checks of every fact are added to its checks, then one check per engine step,
        which holds when the step gave what it expects. A check that fails makes the result no
        derivation (the engine reports it unknown).
    ``recheck``: for a refutation, an exact re-check of the counterexample against the source's own
    statement (``counterexample -> (ok, text)``; sympy only); ``ok`` False makes it unverified.
    ``derive``: for ``verdict="derived"`` only, ``() -> Derived``.

    A chain of one engine check and one exact fact; the certificate records both:

    >>> from symbolic.api import *
    >>> proof = Proof((Check(Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)), (E,), Sizes(1, 2, 2)),
    ...                Fact("E² ≥ E", lambda: (("(E-1)·E ≥ 0", True),), listed=False)),
    ...               method="a lemma and an identity")
    >>> res = check(Claim("x", "⇒", "(notes)", "ε-DP ⇒ (ε,0)-DP", "holds", proof=proof),
    ...             Settings(second_solver=False))
    >>> res.verdict.name, res.verdict.certificate["method"], res.verdict.certificate["E² ≥ E"]
    ('proved', 'a lemma and an identity', '(E-1)·E ≥ 0')
    """

    steps: tuple
    method: str = ""
    verdict: str = "chain"
    lemmas: int | None = None
    claim_sizes: tuple = ()
    recheck: Callable | None = None
    derive: Callable | None = None
    every_size: str = ""

    def __post_init__(self):
        if self.verdict not in ("chain", "first", "derived"):
            raise ValueError(f"Proof.verdict must be 'chain', 'first' or 'derived', not {self.verdict!r}")
        if (self.verdict == "derived") != (self.derive is not None):
            raise ValueError("a Proof has a derive function exactly when its verdict is 'derived'")
        if not self.steps or not isinstance(self.steps[0], Check):
            raise ValueError("a Proof starts with a Check")


@dataclass(frozen=True)
class Claim:
    """A catalogue claim: its statement with engine objects, the source's verdict, sizes.

    >>> from symbolic.api import *
    >>> claim = Claim("my-1", "⇒", "(my notes)", "ε-DP ⇒ 2ε-DP", "holds",
    ...               (Implies(PureDP(E.symbol), PureDP(2 * E.symbol)),), sizes=Sizes(1, 2, 2),
    ...               min_sizes=Sizes(1, 2, 2))
    >>> res = check(claim, Settings(second_solver=False))
    >>> claim.expect, res.verdict.name, res.outcome
    ('proved', 'proved', 'as the source says')
    """

    id: str
    kind: str
    source: str
    statement: str
    source_says: str
    parts: tuple = ()
    params: tuple = EPS_PARAMS
    sizes: Sizes = Sizes(2, 2, 2)
    min_sizes: Sizes = Sizes(1, 2, 2)
    only_sizes: bool = False          # check exactly at ``sizes`` (examples)
    derive: Callable | None = None    # for derive claims: () -> Derived
    proof: Proof | None = None        # a proof through steps, run by the engine
    finding: str | None = None        # a recorded disagreement with the source, if any
    expect: str | None = None         # "proved" / "refuted" / "derived": the verdict that agrees
    display: Callable | None = None   # optional: result -> extra text (e.g. a reproduced table)

    def __post_init__(self):
        if self.expect is None:
            if self.derive is not None:
                exp = "derived"
            elif self.proof is not None:
                exp = "derived" if self.proof.verdict == "derived" else "proved"
            elif self.parts and any(not p.expect_holds for p in self.parts):
                exp = "refuted"
            else:
                exp = "proved"
            object.__setattr__(self, "expect", exp)

    def assuming(self, text: str) -> "Claim":
        """The claim with one parameter's range narrowed by an assumption such as ``0<delta<=1``."""
        from dataclasses import replace

        from symbolic.core.errors import UnknownName
        from symbolic.core.ranges import parse_assumption
        name, lo, ls, hi, hs = parse_assumption(text)
        self._takes_ranges("--assume")
        names = [p.name for p in self.params]
        if name not in names:
            raise UnknownName(f"--assume names {name!r}, which is not a parameter of {self.id}; "
                              f"its parameters: {', '.join(names) or 'none'}")
        return replace(self, params=tuple(p.assuming(lo, ls, hi, hs) if p.name == name else p for p in self.params))

    def _takes_ranges(self, flag):
        if self.derive is not None or (self.proof is not None and self.proof.verdict == "derived"):
            from symbolic.core.errors import InvalidParameter
            raise InvalidParameter(f"{self.id} is a derivation: its formula holds over the whole parameter range "
                                   f"and {flag} does not apply; drop {flag}")

    def fixing(self, values: dict) -> "Claim":
        """The claim with parameters fixed at exact values (``{"E": 3}``; see :meth:`Param.fixed_at`)."""
        from dataclasses import replace

        from symbolic.core.errors import UnknownName
        self._takes_ranges("--param")
        names = [p.name for p in self.params]
        for name in values:
            if name not in names:
                raise UnknownName(f"--param names {name!r}, which is not a parameter of {self.id}; "
                                  f"its parameters: {', '.join(names) or 'none'}")
        return replace(self, params=tuple(p.fixed_at(values[p.name]) if p.name in values else p for p in self.params))

    def with_sizes(self, n=None, domain=None, outputs=None) -> "Claim":
        s = self.sizes
        new = Sizes(n if n is not None else s.n, domain if domain is not None else s.domain,
                    outputs if outputs is not None else s.outputs)
        lo = self.min_sizes
        if new.n < lo.n or new.domain < lo.domain or new.outputs < lo.outputs:
            raise InvalidSize(f"{self.id}: sizes {new} are below the claim's smallest sizes {lo}")
        from dataclasses import replace
        return replace(self, sizes=new)


@dataclass(frozen=True)
class Definition:
    """A catalogue definition, implemented by an engine notion (listed by `dpcheck list`)."""

    id: str
    source: str
    statement: str
    notions: tuple
    kind: str = "def"
