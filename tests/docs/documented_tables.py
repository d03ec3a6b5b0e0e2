"""The declared tables of the documented-command test: the commands that exit non-zero as documented, and
those excluded from the default run."""
from __future__ import annotations

# Commands that exit non-zero as documented, keyed by the command as written (comment left off).
EXPECTED_EXIT: dict[str, tuple[int, str]] = {
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5 --claim eps=1.75": (
        1, "a refuted claim exits 1 (accounting.md)"),
    "dpcheck graph --json g.json --svg g.svg --jobs 2": (
        1, "the whole zoo has unknown pairs (graph.md counts 802 at n = 1); an unknown verdict exits 1"),
}

# Commands excluded from the default run (marked `slow`): those that take long, and the heaviest of the
# rest, so that the default run stays near a minute of processor time. What each does and its time,
# measured on 2 cores shared with other work (processor time of the command and the processes it waited
# for, then wall time).
SLOW: dict[str, str] = {
    "dpcheck account --noise gaussian:4 --rate 1 --steps 16 --delta 1e-5 --conversions": "zCDP conversions: 5 s",
    "dpcheck derive level gaussian-dp --mechanism docs/examples/gaussian-list.json": "three Gaussian runs: 5 s",
    "dpcheck derive map pure-dp approx-dp --compose k --param eps=1": "the binomial sum in k, checked: 2 s",
    "pip install -e '.[test]' && dpcheck audit --json audit.json": "the audit of 71 claims: 418 s CPU, 579 s",
    "dpcheck audit --html report.html": "the audit: 422 s CPU, 603 s",
    "dpcheck audit --html report.html --graph-svg g.svg": "the audit: 431 s CPU, 428 s",
    "dpcheck audit T L --json out.json --markdown out.md --jobs 2": "two sources' claims: 175 s CPU, 808 s",
    "dpcheck graph --json g.json --svg g.svg --jobs 2": "every pair of the zoo in 2 processes: 2,431 s",
    "dpcheck selftest --mutants --json": "every seeded fault against the test suite: 1,366 s CPU, 2,899 s",
    "dpcheck derive level gaussian-dp --mechanism docs/examples/gaussian-16fold.json --param sigma=2":
        "μ of 16 Gaussian runs, its checks at sample points: 9 s CPU",
    "dpcheck check T-P1 --json": "the claim, then 60 nominal s of exploring larger sizes: 129 s CPU, 392 s",
    'dpcheck check K-3.3.1 --assume "delta<1/10"': "the claim, then exploring: 132 s CPU, 432 s",
    "dpcheck check T-P1 --param eps=1/2": "the claim, then exploring: 138 s CPU, 441 s",
    "dpcheck check T-P5 --n 2 --domain 3 --outputs 2 --effort thorough --smt2 q.smt2": "7 s CPU, 24 s",
    "dpcheck derive pml laplace-count --plot pml.png": "a derivation and its plot: 6 s CPU, 28 s",
    "dpcheck derive pml threshold --plot ex33.png": "a derivation and its plot: 4 s CPU, 15 s",
    "dpcheck implies PureDP SemanticPrivacy --n 2 --target 'eps=E-1'": "a proof at n = 2: 12 s",
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5": "the accounted run: 15 s CPU",
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5 --claim eps=1.83": "15 s CPU",
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5 --claim eps=1.75": "15 s CPU",
    "dpcheck account --noise docs/examples/two-stage-run.json --param sigma=1 --delta 1e-5": "two stages: 15 s CPU",
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --sampling without-replacement --delta 1e-5 "
    "--libraries": "without replacement: 16 s CPU",
    "dpcheck account --noise gaussian:1 --rate 1/100 --steps 1000 --delta 1e-5 --conversions": "25 s CPU",
    "dpcheck account --noise gaussian:1 --rate 1/10 --steps 20 --delta 1e-5 --libraries": "three libraries: 7 s",
    "dpcheck implies approx-dp approx-dp --compose 2 --target 'E=E^2' --target 'delta=2*delta'": "two runs: 7 s",
    "dpcheck account --noise gaussian:1 --rate 1/10 --steps 20 --delta 1e-5 --epsilon 2 --calibrate sigma": "7 s",
}
