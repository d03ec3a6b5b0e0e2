"""Parameter names across notions, and how a user may give a value.

One convention holds for every notion and claim:

- a multiplicative privacy level is written ``E`` = e^ε (``E1``, ``E2``, … when there are several,
  ``gamma`` for membership privacy's level): E ≥ 1, a polynomial quantity the solver handles;
- an additive slack is ``delta`` (δ), a divergence level is named after its letter (``rho`` for
  zCDP, ``mu`` for Gaussian DP, ``alpha`` for a Rényi order);
- a value may be given for ``E`` as ε instead: ``eps=v`` (also ``epsilon`` or ``ε``) means
  E = e^v exactly (``eps=log(3)`` is E = 3; ``eps=1/2`` is the transcendental e^(1/2), compared
  by certified intervals); ``eps1`` gives ``E1`` and so on;
- a notion whose own parameter is called ``eps`` (the statistical-difference level of semantic
  privacy, Kasiviswanathan and Smith (2014)) takes ``eps`` as that parameter: a name a notion has
  is never read as an alias.

>>> import sympy as sp
>>> resolve_values({"eps": sp.log(3)}, ["E"], where="PureDP")
{'E': 3}
>>> resolve_values({"eps": sp.Rational(1, 2), "delta": sp.Rational(1, 10)}, ["E", "delta"], where="ApproxDP")
{'E': exp(1/2), 'delta': 1/10}
>>> resolve_values({"eps": 1}, ["eps"], where="SemanticPrivacy")
{'eps': 1}
"""
from __future__ import annotations

import re

import sympy as sp

from symbolic.core.errors import InvalidParameter, UnknownName
from symbolic.core.exact import exact, expr_text, parse_expr

EPS_ALIASES = ("eps", "epsilon", "ε")
_ALIAS = re.compile(r"(eps|epsilon|ε)(\d*)")


def alias_target(key: str, names) -> str | None:
    """The level parameter ``key`` names as ε (``eps`` → ``E``, ``eps2`` → ``E2``), or None when
    ``key`` is not such an alias here (it is a parameter of its own, or there is no such level)."""
    m = _ALIAS.fullmatch(key)
    if key in names or not m or f"E{m.group(2)}" not in names:
        return None
    return f"E{m.group(2)}"


def accepted_names(names) -> list:
    """The names a user may give: the parameters themselves, then the ε aliases of the levels."""
    names = list(names)
    extra = [f"{a}{n[1:]}" for n in names if re.fullmatch(r"E\d*", n) for a in ("eps",)
             if f"{a}{n[1:]}" not in names]
    return names + extra


def resolve_values(given: dict, names, *, where: str) -> dict:
    """The values ``given`` by the user (name → exact sympy number) as values of the parameters
    ``names``: ε aliases become levels (E = e^ε), anything else must be a parameter's own name.
    An unknown name is an :class:`UnknownName` error listing the accepted ones. The ε aliases are
    ``EPS_ALIASES``:

    >>> import sympy as sp
    >>> EPS_ALIASES
    ('eps', 'epsilon', 'ε')
    >>> resolve_values({"eps": sp.log(3), "delta": sp.Rational(1, 10)}, ["E", "delta"], where="ApproxDP")
    {'E': 3, 'delta': 1/10}
    """
    names = list(names)
    out, said = {}, {}
    for key, value in given.items():
        target = key if key in names else alias_target(key, names)
        if target is None:
            ok = ", ".join(accepted_names(names)) or "none"
            raise UnknownName(f"{where} has no parameter {key!r}; it takes: {ok}"
                              + (" (eps=v gives E = e^v)" if "E" in names else ""))
        if target in out:
            raise InvalidParameter(f"{target} is given twice (as {said[target]} and as {key}); give it once")
        # text is read by the restricted parser (numbers, exp, log, sqrt), never evaluated; floats are refused
        v = parse_expr(value, {}, what=key) if isinstance(value, str) else exact(value, what=key)
        if target != key:
            if v.free_symbols or not v.is_number or v.is_real is False:
                raise InvalidParameter(f"{key}={expr_text(v)} must be a real number")
            if v.is_negative:
                raise InvalidParameter(f"{key}={expr_text(v)} is below 0; ε ≥ 0 (E = e^ε ≥ 1)")
            v = sp.exp(v)
        out[target], said[target] = v, key
    return out
