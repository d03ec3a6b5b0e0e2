"""`dpcheck derive WHAT...`: closed forms computed by sympy (the PML of the Laplace counting query, the
Chernoff threshold bound, the tight ε of randomized response), each checked at sample points; the tight
level of a user's table (`derive level`); the tight constant between two notions (`derive map A B`)."""
from __future__ import annotations

import json

import click

from symbolic import InvalidParameter, InvalidSize, UnknownName, clip
from theorems.cli.app import command, ui
from theorems.cli.console import print_markup
from theorems.cli.io import params
from theorems.cli.commands.level_points import run_level_points
from theorems.cli.commands.operation_maps import COMPOSE_HELP, SUBSAMPLE_HELP, run_operation_map
from theorems.cli.options import Count, Seconds, size_options

# What each derivation of theorems.saeidian_pml.derive takes (checked here, before it runs).
DERIVATIONS = {"pml laplace-count": {"eps": "ε >= 0", "lam": "0 < λ <= 1/2"},
               "epsilon randomized-response": {},
               "pml threshold": {"n": "an integer >= 1", "k": "an integer 0 <= k <= n", "p": "0 < p < 1"}}
ALIASES = {"laplace-count": "pml laplace-count", "randomized-response": "epsilon randomized-response",
           "epsilon rr": "epsilon randomized-response", "chernoff threshold": "pml threshold",
           "threshold": "pml threshold"}
MAX_DERIVE_N = 10 ** 6
DEFAULT_BUDGET = 60.0   # seconds for `derive level` and `derive map` (a derivation, not a verdict)


def _derive_params(key, values):
    valid = DERIVATIONS[key]
    takes = ("takes " + ", ".join(f"--param {k}=… ({r})" for k, r in valid.items())) if valid else "takes no --param"
    for k, v in values.items():
        if k not in valid:
            raise InvalidParameter(f"`derive {key}` has no parameter {k!r}; it {takes}")
        if valid[k].startswith("an integer"):
            if not v.is_Integer or not 0 <= v <= MAX_DERIVE_N:
                raise InvalidParameter(f"--param {k}={clip(_text(v))} must be {valid[k]} (at most {MAX_DERIVE_N})")
            values[k] = int(v)
    return takes


@command("derive", short_help="closed forms derived with sympy", examples=[
    ("dpcheck derive level pure-dp --mechanism rr.json --assume '1/2<p<1'", "tight ε of your own table"),
    ("dpcheck derive epsilon --mechanism rr.json", "the same, short form"),
    ("dpcheck derive level approx-dp --mechanism rr.json --param eps=1", "tight δ at ε = 1"),
    ("dpcheck derive level pml --mechanism rr.json --prior prior.json --json", "PML under a prior, as JSON"),
    ("dpcheck derive level mine.py:Floor --mechanism rr.json", "the exact level of your own notion on a table"),
    ("dpcheck derive epsilon randomized-response", "tight ε of binary randomized response"),
    ("dpcheck derive pml laplace-count --plot pml.png", "PML of the Laplace count, plotted"),
    ("dpcheck derive pml laplace-count --param eps=1 --param lam=1/4", "at given values"),
    ("dpcheck derive pml threshold --param n=100 --param p=1/2 --json", "a JSON document"),
    ("dpcheck derive map pure-dp tv-privacy", "best TV level implied by ε-DP: (E-1)/(E+1)"),
    ("dpcheck derive map pure-dp renyi-dp --json", "the tight Rényi-2 level of ε-DP, as JSON"),
    ("dpcheck derive map approx-dp tv-privacy", "in E and δ: (E+2δ-1)/(E+1)"),
    ("dpcheck derive map pure-dp group-dp --max-n 3", "how the constant changes from n = 1 to 3"),
    ("dpcheck derive map pure-dp approx-dp --target delta --param E=E", "one of B's parameters, the other fixed"),
    ("dpcheck derive map pure-dp pure-dp --subsample poisson", "amplification by subsampling: log(1+q(E-1))"),
    ("dpcheck derive map pure-dp approx-dp --compose 5 --param E=exp(1/2) --param eps=1", "optimal composition")])
@click.argument("what", nargs=-1, required=True, metavar="WHAT...")
@size_options("n = 1, |𝒟| = 2, |𝒪| = 2 for `derive map`")
@click.option("--max-n", "max_n", type=Count(1, 4), metavar="N",
              help="with `map A B`: derive the constant at n = 1, 2, ..., N, printing each size as it finishes, and "
                   "say how it changes (e.g. --max-n 3)")
@click.option("--budget", type=Seconds(True), metavar="SECONDS",
              help="with `level` and `map A B`: stop after this many processor seconds of work and say how far it "
                   "got (default 60; counted work, so a busy machine makes it slower, not different; with --max-n "
                   "each size has its own, and the sizes finished are kept; e.g. --budget 120)")
@click.option("--target", metavar="NAME",
              help="with `map A B`: the parameter of B to derive when B has several (e.g. --target delta)")
@click.option("--compose", metavar="K", help=COMPOSE_HELP)
@click.option("--subsample", metavar="SCHEME", help=SUBSAMPLE_HELP)
@click.option("--plot", metavar="FILE", help="also draw the formula to an image file (e.g. --plot pml.png)")
@click.option("--param", "param", multiple=True, metavar="NAME=VALUE",
              help="a value for a parameter of the derivation, an exact number or an expression in numbers "
                   "(exp, log, sqrt); may be repeated "
                   "(e.g. --param eps=1 --param lam=1/4)")
@click.option("--mechanism", metavar="FILE",
              help='with `level NOTION` or `epsilon`: your mechanism table as JSON; entries may be expressions in '
                   'declared parameters: {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"}, '
                   '"rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}} (e.g. --mechanism rr.json)')
@click.option("--assume", multiple=True, metavar="RANGE",
              help="a range for a table parameter; with `map A B`, a range of A's parameters where the map is "
                   "sought and proved; may be repeated (e.g. --assume '1/2<p<1', --assume 'E<=2')")
@click.option("--prior", metavar="FILE",
              help='with `level pml` or `level maximal-leakage`: the prior over the inputs as JSON '
                   '(e.g. --prior prior.json holding {"0": "1/3", "1": "2/3"})')
@click.option("--json", "as_json", is_flag=True,
              help='print only a JSON document: {"tool", "derivation", "formula", "latex", "assumptions", '
                   '"extras", "checks", "plot"}; for `level`: {"formula", "latex", "assumptions", "attained_by", '
                   '"proof", "sizes", "checks", ...} (e.g. --json)')
def derive(what, n, domain, outputs, max_n, budget, target, compose, subsample, plot, param, mechanism, assume, prior,
           as_json):
    """Derive a closed form with sympy and check it at sample points.

    `level NOTION --mechanism FILE`: the tight level of your own mechanism (entries may be symbolic) for
    NOTION: pure-dp (alias epsilon), local-dp, free-lunch, approx-dp (tight δ at --param eps=…),
    renyi-dp (needs --param alpha=K, an integer order 2 ≤ K ≤ 16; renyi-2 and renyi-3 name those orders), total-variation, bounded-range, pml (--prior), maximal-leakage. The answer
    is a closed form (a Piecewise where the maximising pair changes), with the maximisers, the
    assumptions and exact checks at sample points; ∞ is said plainly.

    Any other notion of one mechanism, listed (lip, EventApprox, bayesian-dp, …) or your own (FILE.py:NAME),
    takes a numeric table and --param for its other parameters: the exact least value of its parameter,
    found by evaluating the notion at every root where one of its comparisons changes (an infimum that is not
    attained, or no level, is said so). A notion relative to a prior is read for every prior.

    A density or mass function (`{"kind": "density", "outputs": "reals", "density": {"0": "exp(-abs(y)/b)/(2*b)",
    ...}}`; examples in docs/examples/) takes pure-dp, local-dp, free-lunch, approx-dp (the privacy profile δ(ε),
    in ε unless --param eps=… is given), total-variation, bounded-range, renyi-dp (any real order α > 1, or α
    symbolic), zcdp, gaussian-dp, pml (--prior) and maximal-leakage: an exact value with a certified enclosure, a formula in the parameters
    left without a value, and 30-digit numerical cross-checks. zcdp and gaussian-dp of a finite table (at
    --param values) are certified enclosures over its neighbouring pairs of rows.

    Catalogue derivations: `pml laplace-count` (--param eps, lam), `pml threshold` (--param n, k, p),
    `epsilon randomized-response`.

    `map A B`: the best parameter of notion B implied by A(E) at the sizes (--n, --domain, --outputs), as a
    closed form in A's parameters, with the solver's proof of A(E) ⇒ B(f(E)) (E symbolic) and an exact
    table satisfying A that attains f (or comes within 1%); --max-n N follows f from n = 1 to N. The search
    only proposes: a formula without proof or attaining table is reported as such, and none is made up.
    `map pure-dp zcdp`, `map pure-dp gaussian-dp`, `map gaussian-dp approx-dp` and `map pure-dp renyi-dp
    --param alpha=alpha` (the order a symbol, or a number above 1) go through the dominating pairs instead,
    the same at every size.

    `map A B --compose K` or `--subsample SCHEME` (both: subsampled, then composed): B's tight level after the
    operation on any mechanism satisfying A, derived on A's dominating pair after it (which attains it), as a
    formula in A's parameters (--param E=…, delta, mu, rho to fix them), the rate q and the number of runs k;
    B's level takes --param eps=… (ε′ of approx-dp) and alpha=… (the Rényi order). Where the engine can state
    it, "A ⇒ B" after the operation is also proved for every table within small sizes.

    Exit 1 if a check fails."""
    sized = [f for f, v in (("--n", n), ("--domain", domain), ("--outputs", outputs), ("--max-n", max_n),
                            ("--target", target)) if v is not None]
    operated = compose is not None or subsample is not None
    if operated and not (what and what[0].lower() == "map"):
        raise InvalidParameter("--compose and --subsample go with `derive map A B` (a mechanism file states its own "
                               "operation for `derive level`)")
    if what and what[0].lower() == "map":
        for flag, value in (("--plot", plot), ("--mechanism", mechanism), ("--prior", prior)):
            if value:
                raise InvalidParameter(f"{flag} does not go with `derive map A B`")
        if operated:
            for flag, value in (("--n", n), ("--domain", domain), ("--outputs", outputs), ("--max-n", max_n),
                                ("--target", target), ("--assume", assume)):
                if value:
                    raise InvalidParameter(f"{flag} does not go with --compose or --subsample: the map is derived "
                                           f"on A's dominating pair, the same at every size")
            return run_operation_map(what[1:], compose, subsample, param, as_json)
        return _map(what[1:], n, domain, outputs, max_n, budget, target, param, as_json, tuple(assume or ()))
    if sized:
        raise InvalidParameter(f"{', '.join(sized)} go{'es' if len(sized) == 1 else ''} with `derive map A B`")
    if mechanism is not None or (what and what[0].lower() == "level"):
        return _level(what, mechanism, param, assume, prior, as_json, DEFAULT_BUDGET if budget is None else budget)
    if budget is not None:
        raise InvalidParameter("--budget goes with `derive level` and `derive map A B`")
    for flag, value in (("--assume", assume), ("--prior", prior)):
        if value:
            raise InvalidParameter(f"{flag} goes with `derive level NOTION --mechanism FILE`")
    values = params(param)
    key = " ".join(what).strip().lower()
    key = ALIASES.get(key, key)
    if key not in DERIVATIONS:
        raise UnknownName(f"nothing to derive for {clip(key)}; try {', '.join(repr(k) for k in DERIVATIONS)}")
    takes = _derive_params(key, values)
    from theorems.saeidian_pml import derive as run
    try:
        v = run(key, plot=plot, **values)
    except (InvalidParameter, InvalidSize) as e:
        raise InvalidParameter(f"{e}; `derive {key}` {takes}") from None
    ok = all(good for _, good in v.checks)
    if as_json:
        import sympy as sp
        from symbolic import tool_json
        latex = sp.latex(v.formula) if isinstance(v.formula, sp.Basic) else None
        print(json.dumps({"tool": tool_json(), "derivation": key, "formula": _text(v.formula), "latex": latex,
                          "assumptions": str(v.assumptions), "extras": {k: _text(x) for k, x in v.extras.items()},
                          "checks": [{"check": str(c), "ok": bool(good)} for c, good in v.checks],
                          "plot": plot}, indent=2, ensure_ascii=False))
        return 0 if ok else 1
    note = _notation([v.formula, *v.extras.values()])
    if note:
        print(f"notation: {note}")
    print(f"formula: {_text(v.formula)}")
    print(f"assumptions: {v.assumptions}")
    for k, x in v.extras.items():
        print(f"{k}: {_text(x)}")
    for c, good in v.checks:
        print_markup(ui(), f"check: {_escape(str(c))}: " + ("[green]ok[/]" if good else "[red bold]FAILED[/]"),
                     f"check: {c}: {'ok' if good else 'FAILED'}")
    return 0 if ok else 1


def _stopped(e, as_json, done=None):
    """A derivation its budget (or the budget's wall-clock safety net) stopped: how far it got (as JSON with
    --json), exit 1."""
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), "stopped": str(e), "reached": e.where, "budget": e.seconds,
                          **({"finished": done} if done is not None else {})}, indent=2, ensure_ascii=False))
    else:
        print(f"{e}; no result (raise --budget to let it finish)")
    return 1


def _level(what, mechanism, param, assume, prior, as_json, budget):
    """`derive level NOTION --mechanism FILE` and its short form `derive epsilon --mechanism FILE`."""
    from symbolic import BudgetSpent, derive_level, level_json, level_text
    from theorems.cli.io import load_json
    words = [w.lower() for w in what]
    if words and words[0] == "level":
        words = words[1:]
    if len(words) != 1:
        raise InvalidParameter("write `derive level NOTION --mechanism FILE` with one NOTION, e.g. "
                               "`derive level pure-dp --mechanism rr.json`")
    if mechanism is None:
        raise InvalidParameter(f"`derive level {words[0]}` needs --mechanism FILE (the table as JSON)")
    doc = load_json(mechanism, "mechanism")
    operation = isinstance(doc, dict) and doc.get("kind") in ("composition", "subsampled")
    doc = _operands_read(doc, mechanism)
    if _scan_only(words[0]) and not operation:   # an operation's level says which notions it takes
        if prior or assume:
            raise InvalidParameter(f"--prior and --assume go with the listed levels ({clip(words[0])} takes a numeric "
                                   f"table and --param for its other parameters)")
        return _table_level(what[-1], doc, param, as_json, budget)
    prior_doc = load_json(prior, "prior") if prior else None
    values = {}
    for item in param:
        if "=" not in item:
            raise InvalidParameter(f"--param {clip(item)} must look like NAME=VALUE, e.g. --param eps=1")
        k, v = item.split("=", 1)
        if k.strip() in values:
            raise InvalidParameter(f"--param {clip(k.strip())} is given twice")
        values[k.strip()] = v.strip()
    listed = [k for k, v in values.items() if "," in v]
    if listed:
        return run_level_points(words[0], doc, listed, values, tuple(assume), prior_doc, as_json)
    try:
        d = derive_level(words[0], doc, params=values, assumptions=tuple(assume), prior=prior_doc, budget=budget)
    except BudgetSpent as e:
        return _stopped(e, as_json)
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), **level_json(d)}, indent=2, ensure_ascii=False))
    else:
        print(level_text(d))
    return 0 if d.ok else 1


def _operands_read(doc, path, depth=0):
    """An operation's document with each ``"of"`` that is a path replaced by that file's document, read
    relative to the file that names it (nested operations too, at most four deep)."""
    from pathlib import Path
    from theorems.cli.io import load_json
    if not (isinstance(doc, dict) and doc.get("kind") in ("composition", "subsampled")) or "of" not in doc:
        return doc
    if depth >= 4:
        raise InvalidParameter(f"operations nest more than four deep in {clip(str(path), 60)}")
    def read(of):
        if isinstance(of, str):
            inner = str(Path(path).parent / of)
            return _operands_read(load_json(inner, f"{doc['kind']} operand"), inner, depth + 1)
        return _operands_read(of, path, depth + 1)
    of = doc["of"]
    return {**doc, "of": [read(x) for x in of] if isinstance(of, list) and len(of) <= 64 else read(of)}


def _scan_only(word) -> bool:
    """Is ``word`` a notion whose level is found only by the exact scan of a numeric table (the user's own
    ``FILE.py:NAME``, or a listed notion with neither a closed-form level of tables nor a level of densities)?
    zcdp and gaussian-dp are not: their levels are derived for densities and enclosed for numeric tables."""
    from symbolic import UnknownName as _Unknown, find_notion, level_notion
    from symbolic import curve_notion
    from theorems.cli.lookup import users_own
    if users_own(word):
        return True
    for derived in (level_notion, curve_notion):
        try:
            derived(word)
            return False
        except (_Unknown, InvalidParameter):
            pass
    try:
        find_notion(word)
        return True
    except _Unknown:
        return False


def _table_level(name, doc, param, as_json, budget=DEFAULT_BUDGET):
    """`derive level NOTION --mechanism FILE` for any notion of one mechanism, on a numeric table."""
    from symbolic import mechanism_from_json, table_level
    from theorems.cli.io import param_values
    from symbolic import check_reached
    from theorems.cli.lookup import derive_limit, listed_or_own, one_mechanism
    notion = listed_or_own(name, derive_limit(budget)).notion
    one_mechanism(notion, "derive level")
    from symbolic import is_continuous_document
    if is_continuous_document(doc):
        from symbolic import CURVE_NOTIONS
        raise InvalidParameter(f"{clip(name)}: its level is found by an exact scan of a finite table, and the mechanism "
                               f"is a density or mass function; the levels derived for those are "
                               f"{', '.join(CURVE_NOTIONS)}")
    if isinstance(doc, dict) and "params" in doc:
        raise InvalidParameter(f"{clip(name)}: the table must be numeric (no \"params\"); symbolic tables go with the "
                               f"listed levels (pure-dp, approx-dp, renyi-dp, ...)")
    table = mechanism_from_json(doc, name="mechanism").table()
    d = table_level(notion, table, fixed=param_values(param, [p.name for p in notion.params], where=notion.name))
    check_reached(notion)   # a user's code out of its limit: no level, even if a step went on without it
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), **d.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(d.text())
    return 0 if d.ok else 1


def _map(names, n, domain, outputs, max_n, budget, target, param, as_json, assume=()):
    """`derive map A B`: the tight constant, its proof and attaining table; with --max-n its growth."""
    from symbolic import Sizes
    from symbolic import derive_map
    from symbolic import check_reached
    from theorems.cli.lookup import derive_limit, listed_or_own, search_sizes
    if len(names) != 2:
        raise InvalidParameter("write `derive map A B` with two notions, e.g. `derive map pure-dp tv-privacy` "
                               "(IDs from `dpcheck notions`, or FILE.py:NAME for a notion of your own)")
    limit = derive_limit(DEFAULT_BUDGET if budget is None else budget, max_n or 1)
    a, b = (listed_or_own(x, limit) for x in names)
    at_order = a.id == "pure-dp" and b.id == "renyi-dp" and any(x.split("=")[0].strip() == "alpha" for x in param)
    if "transcendental" in (a.cls, b.cls) or at_order:
        if assume:
            raise InvalidParameter("--assume goes with `derive map A B` between notions of finite tables; the "
                                   "transcendental maps are given at each --param eps=…")
        return _curve_map(a, b, n, domain, outputs, max_n, target, param, as_json)
    fix = {}
    for item in param:
        if "=" not in item:
            raise InvalidParameter(f"--param {clip(item)} must look like NAME=VALUE, e.g. --param E=E")
        k, v = (t.strip() for t in item.split("=", 1))
        if k in fix:
            raise InvalidParameter(f"--param {clip(k)} is given twice")
        fix[k] = v
    sizes = Sizes(n or 1, domain or 2, outputs or 2)
    search_sizes(sizes)
    if max_n is not None and n is not None:
        raise InvalidParameter("give --n (one size) or --max-n (n = 1 .. N), not both")
    budget = DEFAULT_BUDGET if budget is None else budget
    if max_n is not None:
        search_sizes(Sizes(max_n, sizes.domain, sizes.outputs))
        return _growth(a, b, sizes, max_n, budget, target, fix, as_json, assume)
    from symbolic import BudgetSpent
    try:
        d = derive_map(a, b, sizes=sizes, target=target, fix=fix, budget=budget, assume=assume)
    except BudgetSpent as e:
        return _stopped(e, as_json)
    check_reached(a.notion, b.notion)
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), **d.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(d.text())
    return 0 if d.ok else 1


def _curve_map(a, b, n, domain, outputs, max_n, target, param, as_json):
    """`derive map A B` where A or B is transcendental (zCDP, GDP): through ε-DP's dominating pair, the
    same at every size, at the ε values of --param eps=… (repeatable; default 1/10, 1/2, 1, 2, 5)."""
    from symbolic import CURVE_MAP_EPS, curve_map, parse_expr
    if max_n is not None or target is not None:
        raise InvalidParameter(f"--max-n and --target do not apply to {a.id} ⇒ {b.id}: its level is derived from "
                               f"ε-DP's dominating pair, the same at every size")
    eps, alpha = [], None
    for item in param:
        k, _, v = item.partition("=")
        if k.strip() == "alpha" and b.id == "renyi-dp":
            alpha = v.strip()   # read by the engine: a number above 1, or alpha (the order kept a symbol)
            continue
        if k.strip() != "eps":
            raise InvalidParameter(f"--param {clip(item)}: {a.id} ⇒ {b.id} takes --param eps=VALUE (ε > 0)")
        e = parse_expr(v.strip(), {}, what="eps")
        if e.is_positive is not True:
            raise InvalidParameter(f"--param eps={clip(v)} must be a positive number")
        eps.append(e)
    d = curve_map(a.id, b.id, tuple(eps) or CURVE_MAP_EPS, alpha=alpha)
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), **d.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(d.text())
    return 0 if d.ok else 1


def _growth(a, b, sizes, max_n, budget, target, fix, as_json, assume=()):
    """`derive map A B --max-n N`: n = 1 .. N within the budget. SIGINT or SIGTERM stops it: the sizes
    finished are printed (and the JSON document of them), exit 130 / 143."""
    import signal
    from symbolic import derive_map_growth
    from theorems.cli.app import Stop, stop_on_signals
    finished, g = [], None

    def done(run):      # printed as each size finishes (the text; JSON is one document, at the end)
        finished.append(run)
        if not as_json:
            print(run.text(), flush=True)
    with stop_on_signals() as stopped:
        g = derive_map_growth(a, b, domain=sizes.domain, outputs=sizes.outputs, max_n=max_n, budget=budget,
                              target=target, fix=fix, assume=assume, on_run=done)
    if stopped:
        name = signal.Signals(stopped[0]).name
        _print_runs(finished, as_json, f"stopped by {name}", None)
        from theorems.cli.io import say
        say("error", f"stopped by {name}: {len(finished)} of {max_n} sizes finished")
        raise Stop(stopped[0], announced=True)
    from symbolic import check_reached
    check_reached(a.notion, b.notion)
    _print_runs(list(g.runs), as_json, g.summary, g.to_json())
    return 0 if g.runs and all(r.ok for r in g.runs) and not g.not_reached else 1


def _print_runs(runs, as_json, summary, growth):
    """The end of `derive map --max-n`: the JSON document of every size finished, or (the sizes having been
    printed as they finished) the growth line."""
    if as_json:
        from symbolic import tool_json
        first = runs[0].to_json() if runs else {}
        growth = growth or {"sizes": [r.sizes.as_dict() for r in runs], "summary": summary,
                            "runs": [r.to_json() for r in runs]}
        print(json.dumps({"tool": tool_json(), **first, "growth": growth}, indent=2, ensure_ascii=False))
    else:
        print(f"growth: {summary}")


def _text(x):
    """A formula as the rest of dpcheck writes it: Euler's number as ``exp(1)``, never as ``E`` (which is
    always the privacy level e^ε); anything that is not a sympy expression as it is."""
    import sympy as sp
    from symbolic import expr_text
    return expr_text(x) if isinstance(x, sp.Basic) else str(x)


def _notation(values):
    """One line saying what E and exp(1) mean, when a printed formula has either; else None."""
    import sympy as sp
    exprs = [x for x in values if isinstance(x, sp.Basic)]
    has_e = any(any(getattr(s, "name", None) == "E" for s in x.free_symbols) for x in exprs)
    has_euler = any(x.has(sp.E) for x in exprs)
    said = (["E = e^ε (the privacy level)"] if has_e else []) + (["exp(1) is Euler's number e"] if has_euler else [])
    return "; ".join(said) or None


def _escape(text):
    from rich.markup import escape
    return escape(text)
