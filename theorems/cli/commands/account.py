"""`dpcheck account`: a certified enclosure of a private training run's ε(δ) or δ(ε), and the check of a
claimed number. Exit 0: an enclosure, or a claim proved; 1: a claim refuted or unknown; 2: bad input."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import click

from symbolic import InvalidParameter, clip
from theorems.cli.app import command

MAX_STEPS = 10 ** 7


def _number(text: str, what: str) -> Fraction:
    """An exact number from the command line (a decimal, a fraction, or 1e-5): never evaluated as code."""
    t = text.strip()
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]{1,3})?(/[0-9]+)?", t):
        raise InvalidParameter(f"{what} {clip(t, 30)}: give a positive number, e.g. 1/100, 0.01 or 1e-5")
    if "/" in t:
        num, den = t.split("/")
        if int(den) == 0:
            raise InvalidParameter(f"{what} {clip(t, 30)}: division by zero")
        return Fraction(num) / int(den)
    return Fraction(t)


def _noise(text: str):
    kind, _, value = text.partition(":")
    if kind not in ("gaussian", "laplace") or not value:
        return None
    scale = _number(value, f"--noise {kind}:")
    if scale <= 0:
        raise InvalidParameter(f"--noise {clip(text, 30)}: the noise scale must be positive")
    return kind, scale


def _stages(noise, rate, steps, sampling, param=()):
    from symbolic import Stage
    got = _noise(noise)
    if got is None:
        from pathlib import Path
        if not Path(noise).is_file():
            raise InvalidParameter(f"--noise {clip(noise, 40)}: give gaussian:SIGMA, laplace:B or a run file that "
                                   f"exists")
        if rate is not None or steps is not None:
            raise InvalidParameter("--rate and --steps go with --noise gaussian:SIGMA or laplace:B; a run file states "
                                   "its own rates and steps")
        from symbolic import stages_from_document
        from theorems.cli.commands.derive import _operands_read
        from theorems.cli.io import load_json, name_value_pairs
        values = name_value_pairs(param, "--param", "NAME=VALUE, e.g. sigma=1")
        return stages_from_document(_operands_read(load_json(noise, "run"), noise), values)
    if param:
        raise InvalidParameter("--param goes with a run file (--noise FILE), for its densities' parameters")
    if rate is None or steps is None:
        raise InvalidParameter("--noise gaussian:SIGMA (or laplace:B) needs --rate Q and --steps T")
    q = _number(rate, "--rate")
    if not 0 < q <= 1:
        raise InvalidParameter(f"--rate {clip(rate, 30)}: the sampling rate must be in (0, 1]")
    if not re.fullmatch(r"[0-9]{1,8}", steps.strip()) or not 1 <= int(steps) <= MAX_STEPS:
        raise InvalidParameter(f"--steps {clip(steps, 30)}: the number of steps must be a positive integer (at most "
                               f"{MAX_STEPS})")
    return (Stage(got[0], got[1], q, int(steps), sampling=sampling),)


def _claim(text):
    if text is None:
        return None
    name, eq, value = text.partition("=")
    if not eq or name.strip() not in ("eps", "delta"):
        raise InvalidParameter(f"--claim {clip(text, 30)}: write --claim eps=X or --claim delta=D")
    return name.strip(), _number(value, f"--claim {name.strip()}=")


@command("account", short_help="a certified ε for a private training run", examples=[
    ("dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5", "ε enclosed: [lower, upper]"),
    ("dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5 --claim eps=1.83",
     "is ε = 1.83 valid for the run?"),
    ("dpcheck account --noise laplace:2 --rate 1/10 --steps 100 --epsilon 1 --json", "δ(1) enclosed, as JSON"),
    ("dpcheck account --noise run.json --delta 1e-5", "a run of several stages, from a file")])
@click.option("--noise", metavar="gaussian:SIGMA|laplace:B|FILE",
              help="the mechanism of one step, sensitivity 1: the Gaussian with noise multiplier SIGMA, the Laplace "
                   "with scale B, or a run file in the composition/subsampling format (e.g. --noise gaussian:1)")
@click.option("--from", "source", metavar="FILE",
              help='the run as a library describes it, a JSON object: {"dp_event": …} (dp-accounting\'s DpEvent as '
                   'its named tuple), {"opacus_history": [[noise_multiplier, sample_rate, steps], …]} or {"autodp": '
                   '{"prob": …, "sigma": …, "coeff": …}} (e.g. --from run.json)')
@click.option("--libraries", is_flag=True,
              help="with --delta: also compute the installed libraries' ε for the run (dp-accounting, autodp, "
                   "Opacus) and decide each as a claim: valid and how loose, not a guarantee, or undecided "
                   "(e.g. --libraries)")
@click.option("--conversions", is_flag=True,
              help="with --delta, for a Gaussian run: also the accountants' route, its Rényi DP at whole orders "
                   "converted to (ε, δ) by Mironov (2017) and by Balle et al. (2020), or for a run at rate 1 its "
                   "zCDP by Bun-Steinke (2016) and Canonne-Kamath-Steinke (2020), with each one's gap to the "
                   "certified enclosure (e.g. --conversions)")
@click.option("--rate", metavar="Q", help="the sampling rate, 0 < Q ≤ 1: Poisson, or m/n without replacement (e.g. --rate 1/100)")
@click.option("--sampling", type=click.Choice(["poisson", "without-replacement"]), default="poisson",
              show_default=True, help="the sampling scheme: Poisson (add/remove one record) or m of n without replacement (replace one record) (e.g. --sampling poisson)")
@click.option("--steps", metavar="T", help="the number of steps (e.g. --steps 1000)")
@click.option("--delta", metavar="D", help="enclose ε at this δ, 0 < D < 1 (e.g. --delta 1e-5)")
@click.option("--epsilon", metavar="X", help="enclose δ at this ε ≥ 0 (e.g. --epsilon 1)")
@click.option("--claim", metavar="eps=X|delta=D",
              help="check a claimed number: proved (a valid guarantee), refuted (with the certified witness) or "
                   "unknown (e.g. --claim eps=1.83)")
@click.option("--param", "param", multiple=True, metavar="NAME=VALUE",
              help="with --noise FILE: a value for a parameter of the file's densities (e.g. --param sigma=1)")
@click.option("--calibrate", type=click.Choice(["sigma", "rate", "steps"]),
              help="with --delta D and --epsilon X, the target: a certified interval for the least σ (or the largest "
                   "rate, the most steps) that meets it; the run's own value is a starting guess "
                   "(e.g. --calibrate sigma)")
@click.option("--precision", metavar="P", default="1/100", show_default=True,
              help="the enclosure's width relative to ε (e.g. --precision 1/1000)")
@click.option("--json", "as_json", is_flag=True,
              help='print only a JSON document: {"run", "epsilon": {"lower", "upper"} or "delta": {...}, "claim", '
                   '"method", ...} (e.g. --json)')
def account_command(noise, source, libraries, conversions, rate, sampling, steps, delta, epsilon, claim, param, calibrate,
                    precision, as_json):
    """A certified enclosure [lower, upper] of the tight ε(δ) (or δ(ε)) of a private training run: T steps of a
    mechanism on a Poisson subsample (add/remove one record), composed. upper is proved (the run is
    (upper, δ)-DP), lower is proved not to be (a certified event shows the run is not (lower, δ)-DP). With
    --claim: proved, refuted with the witness, or unknown naming the option that narrows it."""
    from symbolic import tool_json
    from symbolic import account
    if calibrate is not None:
        return _calibrated(calibrate, noise, source, rate, steps, sampling, delta, epsilon, claim, libraries,
                           precision, as_json)
    if (delta is None) == (epsilon is None):
        raise InvalidParameter("give one of --delta D (ε is enclosed) or --epsilon X (δ is enclosed)")
    if (noise is None) == (source is None):
        raise InvalidParameter("give the run with one of --noise gaussian:SIGMA|laplace:B|FILE or --from FILE")
    if source is not None:
        if rate is not None or steps is not None or param:
            raise InvalidParameter("--from states the run: --rate, --steps and --param do not go with it")
        from symbolic import stages_from_description
        from theorems.cli.io import load_json
        stages = stages_from_description(load_json(source, "--from"))
    else:
        stages = _stages(noise, rate, steps, sampling, param)
    d = e = None
    if delta is not None:
        d = _number(delta, "--delta")
        if not 0 < d < 1:
            raise InvalidParameter(f"--delta {clip(delta, 30)}: δ must be in (0, 1)")
    elif "," in epsilon:
        return _profile(stages, epsilon, claim, libraries, precision, as_json)
    else:
        e = _number(epsilon, "--epsilon")
    asked = _claim(claim)
    if asked is not None and (asked[0] == "eps") != (d is not None):
        raise InvalidParameter("--claim eps=X goes with --delta D, and --claim delta=D with --epsilon X")
    p = _precision(precision)
    others, skipped = (), []
    if libraries:
        if d is None:
            raise InvalidParameter("--libraries goes with --delta D (the libraries' ε at that δ)")
        from symbolic import library_epsilons
        got = library_epsilons(stages, d)
        others = tuple((name, ("eps", eps), note) for name, eps, note in got if eps is not None)
        skipped = [f"{name}: {note}" for name, eps, note in got if eps is None]
    converted = []
    if conversions:
        if d is None:
            raise InvalidParameter("--conversions goes with --delta D (ε at that δ)")
        from symbolic import accountant_conversions
        converted = accountant_conversions(stages, d)
    r = account(stages, delta=d, epsilon=e, precision=p, claim=asked, others=others)
    rows = [{"route": route, "conversion": name, "epsilon": f"{float(eps):.9g}",
             "alpha": a if a is None or isinstance(a, int) else str(a),
             "above_upper": f"{float(eps - r.epsilon[1]):.3g}"} for route, name, eps, a in converted]
    if as_json:
        print(json.dumps({"tool": tool_json(), **r.to_json(), **({"libraries_not_run": skipped} if skipped else {}),
                          **({"conversions": rows} if rows else {})}, indent=2, ensure_ascii=False))
    else:
        print(r.text())
        for row in rows:
            order = "" if row["alpha"] is None else f" (order α = {row['alpha']})"
            print(f"{row['route']} → (ε, δ) by {row['conversion']}: ε ≤ {row['epsilon']}{order}, "
                  f"{row['above_upper']} above the certified upper end")
        for line in skipped:
            print(f"not run: {line}")
    if r.claim is None:
        return 0
    return 0 if r.claim["verdict"] == "proved" else 1


def _precision(text) -> Fraction:
    p = _number(text, "--precision")
    if not 0 < p < 1:
        raise InvalidParameter(f"--precision {clip(text, 30)}: the relative width must be in (0, 1)")
    return p


def _profile(stages, epsilon, claim, libraries, precision, as_json) -> int:
    """--epsilon X1,X2,…: the run's δ enclosed at each ε, on one build of its bounds."""
    from symbolic import profile_points, tool_json
    if claim is not None or libraries:
        raise InvalidParameter("--claim and --libraries go with one --epsilon or --delta, not a list")
    values = [_number(x, "--epsilon") for x in epsilon.split(",")]
    if not 1 <= len(values) <= 10_000:
        raise InvalidParameter("--epsilon takes 1 to 10000 values")
    points = profile_points(stages, values, _precision(precision))
    if as_json:
        print(json.dumps({"tool": tool_json(), "run": [s.text() for s in stages], "profile": [
            {"epsilon": str(e), "delta": {"lower": f"{float(lo):.12g}", "upper": f"{float(hi):.12g}"}}
            for e, lo, hi in points]}, indent=2, ensure_ascii=False))
    else:
        for e, lo, hi in points:
            print(f"ε = {float(e):g}: δ in [{float(lo):.9g}, {float(hi):.9g}] (certified)")
    return 0


def _calibrated(kind, noise, source, rate, steps, sampling, delta, epsilon, claim, libraries, precision, as_json):
    """--calibrate KIND with the target --delta D --epsilon X, on a run given by flags."""
    from symbolic import calibrate, tool_json
    if delta is None or epsilon is None:
        raise InvalidParameter("--calibrate needs the target: both --delta D and --epsilon X")
    if source is not None or claim is not None or libraries:
        raise InvalidParameter("--calibrate goes with a run given by --noise, --rate and --steps (no --from, --claim "
                               "or --libraries)")
    stages = _stages(noise, rate, steps, sampling)
    if len(stages) != 1 or stages[0].noise == "table":
        raise InvalidParameter("--calibrate takes one stage of the Gaussian or Laplace mechanism")
    d, e = _number(delta, "--delta"), _number(epsilon, "--epsilon")
    if not 0 < d < 1:
        raise InvalidParameter(f"--delta {clip(delta, 30)}: δ must be in (0, 1)")
    c = calibrate(stages[0], kind, e, d, _precision(precision))
    if as_json:
        print(json.dumps({"tool": tool_json(), **c.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(c.text())
        for line in c.why:
            print(f"certified: {line}")
    return 0
