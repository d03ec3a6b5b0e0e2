"""`derive map A B --compose K | --subsample SCHEME`: B's tight level after an operation on A's mechanisms.

The options are read into the operation document of the mechanism file format (without its ``"of"``); the
map is derived on A's dominating pair (:mod:`symbolic.derive.operations.maps`)."""
from __future__ import annotations

import re

from symbolic import InvalidParameter, clip

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,19}$")
MAX_TIMES = 10 ** 6
COMPOSE_HELP = ("with `map A B` and `implies`: A's mechanisms composed K times, K a positive integer or a name (a "
                "symbol k ≥ 1) (e.g. --compose 5 or --compose k)")
SUBSAMPLE_HELP = ("with `map A B` and `implies`: A's mechanism run on a random subsample: poisson (the rate a "
                  "symbol q in (0, 1)), poisson:Q (0 < Q < 1), or without-replacement:N (one record of N, "
                  "replace-one); with --compose too, subsampled, then composed (e.g. --subsample poisson:1/10)")


def _rate(text: str):
    from symbolic import parse_expr
    r = parse_expr(text, {}, what="--subsample rate")
    if not (r.is_real and r.is_number and 0 < r < 1):
        raise InvalidParameter(f"--subsample poisson:{clip(text, 30)}: the rate must be a number in (0, 1), e.g. "
                               f"poisson:1/10")
    return r


def operation_of(compose, subsample) -> dict | None:
    """The operation document of ``--compose`` and ``--subsample`` (None when neither is given).

    >>> operation_of("5", None)
    {'kind': 'composition', 'times': 5}
    >>> operation_of("k", "poisson:1/10")["of"]
    {'kind': 'subsampled', 'sampling': 'poisson', 'rate': '1/10'}
    """
    inner = None
    if subsample is not None:
        scheme, _, arg = subsample.strip().partition(":")
        if scheme == "poisson":
            inner = ({"kind": "subsampled", "sampling": "poisson", "rate": "q", "params": {"q": "0<q<1"}}
                     if not arg else {"kind": "subsampled", "sampling": "poisson", "rate": str(_rate(arg))})
        elif scheme == "without-replacement":
            if not re.fullmatch(r"\d{1,4}", arg or "") or int(arg) < 2:
                raise InvalidParameter(f"--subsample {clip(subsample, 40)}: write without-replacement:N with N an "
                                       f"integer from 2 to 9999, the number of records sampled from")
            inner = {"kind": "subsampled", "sampling": "without-replacement", "rate": f"1/{int(arg)}",
                     "size": int(arg)}
        else:
            raise InvalidParameter(f"--subsample {clip(subsample, 40)}: the sampling is poisson, poisson:Q or "
                                   f"without-replacement:N")
    if compose is None:
        return inner
    text = compose.strip()
    if re.fullmatch(r"\d{1,7}", text):
        times = int(text)
        if not 1 <= times <= MAX_TIMES:
            raise InvalidParameter(f"--compose {clip(text, 20)}: the number of runs must be a positive integer (at "
                                   f"most {MAX_TIMES}) or a name")
        op = {"kind": "composition", "times": times}
    elif NAME.fullmatch(text) and text not in ("E", "q", "delta", "mu", "rho", "alpha", "eps"):
        op = {"kind": "composition", "times": text, "params": {text: f"{text}>=1"}}
    else:
        raise InvalidParameter(f"--compose {clip(text, 20)}: the number of runs must be a positive integer or a "
                               f"name (e.g. --compose 5 or --compose k)")
    return {**op, "of": inner} if inner is not None else op


SOURCE_PARAMS = ("E", "delta", "mu", "rho", "epsilon")   # A's parameters; q and k are the operation's
TARGET_PARAMS = ("eps", "alpha")                        # B's level's own: ε′ of (ε′, δ)-DP, the Rényi order


def run_operation_map(names, compose, subsample, param, as_json) -> int:
    """Print the operation map (text or JSON); exit 0 when derived with every check passed, else 1."""
    import json

    from symbolic import find_notion, operation_map, parse_expr, tool_json
    from theorems.cli.io import name_value_pairs
    if len(names) != 2:
        raise InvalidParameter("write `derive map A B --compose K` (or --subsample …) with two notions, e.g. "
                               "`derive map pure-dp pure-dp --subsample poisson`")
    a, b = (find_notion(x).id for x in names)
    operation = operation_of(compose, subsample)
    values, level = {}, {}
    for k, v in name_value_pairs(param, "--param", "NAME=VALUE, e.g. E=3 or eps=1").items():
        if k in TARGET_PARAMS:
            level[k] = v
        elif k in SOURCE_PARAMS:
            e = parse_expr(v, {}, what=f"--param {k}")
            if not (e.is_number and e.is_positive):
                raise InvalidParameter(f"--param {k}={clip(v, 30)} must be a positive number")
            values[k] = str(e)
        else:
            raise InvalidParameter(f"--param {clip(k, 20)}: `derive map` of an operation takes A's parameters "
                                   f"({', '.join(SOURCE_PARAMS)}) and B's level's ({', '.join(TARGET_PARAMS)}); the "
                                   f"rate and the number of runs go in --subsample and --compose")
    m = operation_map(a, b, operation, values=values, level_params=level)
    if as_json:
        print(json.dumps({"tool": tool_json(), **m.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(m.text())
    return 0 if m.ok else 1


__all__ = ["COMPOSE_HELP", "SUBSAMPLE_HELP", "operation_of", "run_operation_map"]
