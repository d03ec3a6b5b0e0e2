"""Exact pointwise maximal leakage (PML) for finite kernels.

Setting (Saeidian et al. (2023), §2; ``notes/pml-formulas.md``): a secret X on a finite set with prior
P_X (a :class:`~symbolic.core.prob.Dist`), a mechanism P_{Y|X} (a :class:`~symbolic.core.prob.Kernel`)
and P_Y(y) = Σ_x P_X(x) P_{Y|X}(y|x). Every quantity is an exact sympy expression.

- PML (Saeidian et al. (2023), Def. 2.3 and Theorem 1's closed form):
  ℓ(X→y) = log max_{x: P_X(x)>0} P(y|x) / P_Y(y) = D_∞(P_{X|Y=y} ‖ P_X).
  For an attribute U with U - X - Y (a kernel P_{U|X} or a function of X),
  ℓ(U→y) = log max_{u: P_U(u)>0} P(y|u) / P_Y(y), P(y|u) = Σ_x P(x|u) P(y|x).
- Convention: an outcome with P_Y(y) = 0 never occurs and leaks nothing (ℓ = 0).
- Conditional PML (Saeidian et al. (2023), Def. 3) given side information Z = h(X) = z (for instance the other
  entries X_{-i} of a database): the same with the prior replaced by P_{X|Z=z}.
- Leakage capacity (Saeidian et al. (2023), Def. 2.4 and Theorem 2): log max_y max_{x,x'} P(y|x)/P(y|x'); infinite iff
  some P(y|x) > 0 = P(y|x').
- Min-entropy H_∞(U) = -log max_u P_U(u); H_∞(U|Y=y) = -log max_u P_{U|Y=y}(u).
- Disclosure (reconstruction, see the notes): y discloses U when P_{U|Y=y} is a point mass.

An entry or probability counts as zero only when it is *definitely* zero; entries with
symbolic parameters are treated as positive. ``*_ratio`` functions return the quantity
before the logarithm, which keeps everything rational in the kernel's entries.
"""
from __future__ import annotations

from typing import Callable, Mapping

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.ops import UndecidedComparison
from symbolic.core.prob import Dist, Kernel

__all__ = [
    "output_probability", "likelihood_ratios", "pml_ratio", "pml", "conditional_pml",
    "condition_prior", "max_pml_ratio", "max_pml", "leakage_capacity_ratio",
    "leakage_capacity", "min_entropy", "posterior", "conditional_min_entropy", "discloses",
]


def _is_zero(e) -> bool:
    e = sp.sympify(e)
    if e.is_Rational:
        return e == 0
    known = e.is_zero   # sympy's assumptions: sound when they answer
    if known is not None:
        return known
    return sp.cancel(sp.together(e)) == 0 or sp.simplify(e).is_zero is True


def _tidy(e):
    e = sp.sympify(e)
    return sp.cancel(sp.together(e)) if e.free_symbols else sp.nsimplify(e) if e.atoms(sp.Float) else e


def _check(kernel, prior):
    if not isinstance(kernel, Kernel):
        raise InvalidParameter(f"kernel={kernel!r} is not a Kernel; build one with symbolic.core.prob.Kernel")
    if not isinstance(prior, Dist):
        raise InvalidParameter(f"prior={prior!r} is not a Dist; build one with symbolic.core.prob.Dist")
    for x, px in prior.items():
        if x not in kernel.inputs and not _is_zero(px):
            raise InvalidParameter(
                f"prior gives P({x!r}) = {px} but {x!r} is not an input of the kernel "
                f"(inputs: {kernel.inputs}); give the kernel a row for it")


def _check_output(kernel, y):
    if y not in kernel.outputs:
        raise InvalidParameter(f"y={y!r} is not an output of the kernel (outputs: {kernel.outputs})")


def _attribute_kernel(attribute, prior) -> Kernel:
    """None -> identity (U = X); a callable -> the deterministic kernel x ↦ attribute(x)."""
    if attribute is None:
        return Kernel({x: {x: 1} for x in prior.outcomes}, outputs=prior.outcomes)
    if isinstance(attribute, Kernel):
        for x, px in prior.items():
            if x not in attribute.inputs and not _is_zero(px):
                raise InvalidParameter(
                    f"attribute kernel has no row for {x!r}, which has prior mass {px}")
        return attribute
    if callable(attribute):
        values = []
        for x in prior.outcomes:
            u = attribute(x)
            if u not in values:
                values.append(u)
        return Kernel({x: {attribute(x): 1} for x in prior.outcomes}, outputs=values)
    raise InvalidParameter(f"attribute={attribute!r} is neither None, a callable nor a Kernel")


def output_probability(kernel: Kernel, prior: Dist, y) -> sp.Expr:
    """P_Y(y) = Σ_x P_X(x) P(y|x).

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> output_probability(rr, Dist({0: "1/3", 1: "2/3"}), 1)
    7/12
    """
    _check(kernel, prior)
    _check_output(kernel, y)
    return _tidy(sp.Add(*[px * kernel.prob(x, y) for x, px in prior.items() if not _is_zero(px)]))


def likelihood_ratios(kernel: Kernel, prior: Dist, y, *, attribute=None) -> dict:
    """The map u ↦ P(y|u)/P_Y(y) over attribute values with P_U(u) > 0 (U = X by default).

    The PML is the log of the largest of these; returning them all lets a derivation decide
    the maximum under assumptions sympy cannot see (e.g. E ≥ 1). Empty when P_Y(y) = 0.

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> likelihood_ratios(rr, Dist.uniform((0, 1)), 1)
    {0: 1/2, 1: 3/2}
    """
    py = output_probability(kernel, prior, y)
    if _is_zero(py):
        return {}
    ak = _attribute_kernel(attribute, prior)
    out = {}
    for u in ak.outputs:
        pu = sp.Add(*[px * ak.prob(x, u) for x, px in prior.items() if not _is_zero(px)])
        if _is_zero(pu):
            continue
        pyu = sp.Add(*[px * ak.prob(x, u) * kernel.prob(x, y)
                       for x, px in prior.items() if not _is_zero(px)]) / pu
        out[u] = _tidy(pyu / py)
    return out


def pml_ratio(kernel: Kernel, prior: Dist, y, *, attribute=None) -> sp.Expr:
    """exp ℓ(U→y) = max_{u: P(u)>0} P(y|u)/P_Y(y); 1 when P_Y(y) = 0 (no leakage).

    Saeidian et al. (2023), Theorem 1 (notes/pml-formulas.md). ``attribute``: None (U = X), a
    function of x, or a kernel P_{U|X} (then U - X - Y is assumed).

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> pml_ratio(rr, Dist.uniform((0, 1)), 1)
    3/2
    """
    ratios = likelihood_ratios(kernel, prior, y, attribute=attribute)
    return sp.Max(*ratios.values()) if ratios else sp.Integer(1)


def pml(kernel: Kernel, prior: Dist, y, *, attribute=None) -> sp.Expr:
    """ℓ(X→y) = log max_{x: P_X(x)>0} P(y|x)/P_Y(y) (pointwise maximal leakage); 0 when P_Y(y) = 0.

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> pml(rr, Dist.uniform((0, 1)), 1)
    log(3/2)
    >>> pml(Kernel({0: {"a": 1}, 1: {"b": 1}}), Dist({0: "1/4", 1: "3/4"}), "a")  # deterministic
    log(4)
    """
    return sp.log(pml_ratio(kernel, prior, y, attribute=attribute))


def condition_prior(prior: Dist, given) -> Dist:
    """P_{X|Z=z} for side information Z = h(X): ``given`` is a predicate x ↦ bool, or a
    mapping {index: value} meaning x[index] == value for each pair.

    >>> condition_prior(Dist.uniform(((0, 0), (0, 1), (1, 1))), {0: 0})
    Dist({(0, 0): 1/2, (0, 1): 1/2, (1, 1): 0})
    """
    if isinstance(given, Mapping):
        pairs = dict(given)
        pred: Callable = lambda x: all(x[i] == v for i, v in pairs.items())
    elif callable(given):
        pred = given
    else:
        raise InvalidParameter(f"given={given!r} is neither a predicate nor a mapping index -> value")
    mass = sp.Add(*[px for x, px in prior.items() if pred(x)])
    if _is_zero(mass):
        raise InvalidParameter(f"given={given!r} has prior probability 0; conditioning is undefined")
    return Dist(outcomes=prior.outcomes,
                probs=[_tidy(px / mass) if pred(x) else 0 for x, px in prior.items()],
                what="conditional prior")


def conditional_pml(kernel: Kernel, prior: Dist, y, *, given, attribute=None) -> sp.Expr:
    """ℓ(U→y | z) = log max_{u: P(u|z)>0} P(y|u,z)/P(y|z) (Saeidian et al. (2023), Def. 3).

    Z = h(X) must be a function of the secret (as X_{-i} is for a database), so
    P(y|x,z) = P(y|x) and the conditional PML is the PML under the prior P_{X|Z=z}.
    For the informed adversary of Saeidian et al. (2023), Theorem 9: ``attribute=lambda x: x[i]``,
    ``given={j: x_j for j != i}``.

    >>> k = Kernel({(a, b): {a ^ b: 1} for a in (0, 1) for b in (0, 1)})   # XOR, deterministic
    >>> X = Dist.uniform(k.inputs)
    >>> pml(k, X, 1, attribute=lambda x: x[0]), conditional_pml(k, X, 1, given={1: 0}, attribute=lambda x: x[0])
    (0, log(2))
    """
    return pml(kernel, condition_prior(prior, given), y, attribute=attribute)


def max_pml_ratio(kernel: Kernel, prior: Dist, *, attribute=None) -> sp.Expr:
    """max over outputs y of exp ℓ(U→y) (outputs with P_Y(y) = 0 contribute 1)."""
    return sp.Max(*[pml_ratio(kernel, prior, y, attribute=attribute) for y in kernel.outputs])


def max_pml(kernel: Kernel, prior: Dist, *, attribute=None) -> sp.Expr:
    """max_y ℓ(U→y): the smallest ε for which the mechanism is ε-PML under ``prior``.

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> max_pml(rr, Dist({0: "1/4", 1: "3/4"}))   # y=0: (3/4)/(3/8)
    log(2)
    """
    return sp.log(max_pml_ratio(kernel, prior, attribute=attribute))


def leakage_capacity_ratio(kernel: Kernel) -> sp.Expr:
    """max_y max_{x,x'} P(y|x)/P(y|x') over all inputs; ``sympy.oo`` if some
    P(y|x) > 0 = P(y|x'). Outputs no input can produce are skipped."""
    if not isinstance(kernel, Kernel):
        raise InvalidParameter(f"kernel={kernel!r} is not a Kernel")
    best = []
    for y in kernel.outputs:
        col = [kernel.prob(x, y) for x in kernel.inputs]
        zero = [_is_zero(c) for c in col]
        if all(zero):
            continue
        if any(zero):
            return sp.oo
        best.append(sp.Max(*col) / sp.Min(*col) if all(c.is_number for c in col)
                    else sp.Max(*[_tidy(a / b) for a in col for b in col]))
    return sp.Max(*best) if best else sp.Integer(1)


def leakage_capacity(kernel: Kernel) -> sp.Expr:
    """C(P_{Y|X}) = sup over full-support priors of max_y ℓ(X→y) (Saeidian et al. (2023), Def. 2.4), computed by
    Theorem 2 (Issa et al. 2019, Thm 14) as log max_y max_{x,x'} P(y|x)/P(y|x').

    >>> leakage_capacity(Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}}))
    log(3)
    >>> leakage_capacity(Kernel({0: {0: 1}, 1: {0: "1/2", 1: "1/2"}}))
    oo
    """
    r = leakage_capacity_ratio(kernel)
    return sp.oo if r == sp.oo else sp.log(r)


def min_entropy(dist: Dist) -> sp.Expr:
    """H_∞(U) = -log max_u P_U(u).

    >>> min_entropy(Dist({"a": "1/4", "b": "3/4"}))
    log(4/3)
    """
    if not isinstance(dist, Dist):
        raise InvalidParameter(f"dist={dist!r} is not a Dist")
    return sp.log(1 / sp.Max(*dist.probs))


def posterior(attribute, prior: Dist, kernel: Kernel, y) -> Dist:
    """P_{U|Y=y}(u) = Σ_x P(x) P(u|x) P(y|x) / P_Y(y); ``attribute`` a kernel P_{U|X},
    a function of x, or None (U = X). Raises when P_Y(y) = 0."""
    py = output_probability(kernel, prior, y)
    if _is_zero(py):
        raise InvalidParameter(f"y={y!r} has P_Y(y) = 0; the posterior given it is undefined")
    ak = _attribute_kernel(attribute, prior)
    probs = [_tidy(sp.Add(*[px * ak.prob(x, u) * kernel.prob(x, y) for x, px in prior.items()
                            if not _is_zero(px)]) / py) for u in ak.outputs]
    return Dist(outcomes=ak.outputs, probs=probs, what="posterior")


def conditional_min_entropy(attribute, prior: Dist, kernel: Kernel, y) -> sp.Expr:
    """H_∞(U | Y=y) = -log max_u P_{U|Y=y}(u).

    >>> rr = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})
    >>> conditional_min_entropy(None, Dist.uniform((0, 1)), rr, 1)
    log(4/3)
    """
    return sp.log(1 / sp.Max(*posterior(attribute, prior, kernel, y).probs))


def discloses(attribute, prior: Dist, kernel: Kernel, y) -> bool:
    """True iff y discloses U: the posterior P_{U|Y=y} is a point mass (H_∞(U|Y=y) = 0).

    Outcomes with P_Y(y) = 0 disclose nothing. Raises ``UndecidedComparison`` when symbolic
    parameters leave the answer open.

    >>> k = Kernel({0: {"lo": 1}, 1: {"lo": "1/2", "hi": "1/2"}, 2: {"hi": 1}})
    >>> X = Dist.uniform((0, 1, 2))
    >>> discloses(lambda x: x >= 1, X, k, "hi"), discloses(None, X, k, "hi")
    (True, False)
    """
    if _is_zero(output_probability(kernel, prior, y)):
        return False
    post = posterior(attribute, prior, kernel, y)
    top = sp.simplify(sp.Max(*post.probs) - 1)
    if top.is_zero is True:
        return True
    if top.is_zero is False or (top.is_number and top != 0):
        return False
    raise UndecidedComparison(
        f"cannot decide whether the posterior {post} is a point mass; substitute parameter values")
