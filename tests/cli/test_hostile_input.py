"""Hostile and broken input (issue 10, point 6): every case answers one line on stderr
(`dpcheck: error: ...`, the offending input echoed at most ~80 characters) and exit 2; never a
traceback, never a crash (exit 3), never anything executed. Most cases run in-process through
`main`; a representative subset also through the real console entry in a subprocess."""
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theorems.cli.main import main

GOOD = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
BIG = "1" + "0" * 5000                   # 5,001 digits: over Python's int() string limit
LONG = "x" * 100_000                     # a 100 KB argument must not be echoed whole
PWNED = "/tmp/dpcheck-hostile-pwned"     # what the code-like strings would create if they ran
CODE = f"__import__('os').system('touch {PWNED}')"


def _with(**kw):
    return {**GOOD, **kw}


# name -> JSON document (or raw bytes) for the --mechanism file
FILES = {
    "good": GOOD,
    "domain_int": _with(domain=5),
    "rows_list": _with(rows=[["3/4", "1/4"], ["1/4", "3/4"], ["1/2", "1/2"]]),   # the list form, one row too many
    "row_string": _with(rows={"0": "10", "1": "01"}),
    "binary": bytes(range(256)) * 8,
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "big_entry": _with(rows={"0": [f"{BIG}/1{'0' * 5000}", "0"], "1": ["1/4", "3/4"]}),
    "big_literal": b'{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [' + BIG.encode() + b', 0]}}',
    "n30": _with(n=30, rows={",".join("0" * 30): ["1", "0"]}),
    "n1000": _with(n=1000, rows={",".join("0" * 1000): ["1", "0"]}),
    "n_string": _with(n="1"),
    "n_bool": _with(n=True),
    "n_float": _with(n=1.0),
    "n_zero": _with(n=0),
    "float_entry": _with(rows={"0": [0.75, 0.25], "1": ["1/4", "3/4"]}),
    "nan_entry": b'{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [NaN, 0], "1": [0, 1]}}',
    "negative": _with(rows={"0": [2, -1], "1": ["1/4", "3/4"]}),
    "not_one": _with(rows={"0": ["3/4", "1/3"], "1": ["1/4", "3/4"]}),
    "too_few_entries": _with(rows={"0": ["1"], "1": ["1/4", "3/4"]}),
    "missing_row": _with(rows={"0": ["1", "0"]}),
    "key_arity": _with(rows={"0,0": ["1", "0"], "1": ["1/4", "3/4"]}),
    "key_outside": _with(rows={"0": ["1", "0"], "1": ["1", "0"], "7": ["1", "0"]}),
    "key_fraction": _with(rows={"1/2": ["1", "0"], "1": ["1", "0"]}),
    "duplicate_key": b'{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [1, 0], "0": [0, 1], "1": [1, 0]}}',
    "null_entry": _with(rows={"0": [None, 1], "1": ["1/4", "3/4"]}),
    "list_entry": _with(rows={"0": [[1], 0], "1": ["1/4", "3/4"]}),
    "bool_entry": _with(rows={"0": [True, 0], "1": ["1/4", "3/4"]}),
    "dict_row_bad_output": _with(rows={"0": {"9": "1"}, "1": ["1/4", "3/4"]}),
    "domain_repeat": _with(domain=[0, 0]),
    "domain_float": _with(domain=[0.5, 1]),
    "outputs_nested": _with(outputs=[[0], [1]]),
    "unknown_key": {**GOOD, "row": {}},
    "top_list": [GOOD],
    "top_string": "rows",
    "empty": b"",
    "not_json": b"{n: 1}",
    "code_entry": _with(rows={"0": [CODE, "1/4"], "1": ["1/4", "3/4"]}),
    "code_key": _with(rows={CODE: ["1", "0"], "1": ["1/4", "3/4"]}),
    "code_output": _with(rows={"0": {CODE: "1"}, "1": ["1/4", "3/4"]}),
    "code_label": _with(outputs=[CODE, 1]),
    "code_domain": _with(domain=[CODE, 1]),
    "code_n": _with(n=CODE),
    "huge_table": _with(n=19, rows={",".join("0" * 19): ["1", "0"]}),
    "const7": _with(n=7, rows={",".join(f"{i:07b}"): ["1/2", "1/2"] for i in range(128)}),
}
POP = {"pop_code": {"0": CODE, "1": "1/2"}, "pop_list": ["1/2", "1/2"], "pop_not_one": {"0": "1/2", "1": "1/3"},
       "pop_bad_key": {"0,1": "1"}}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    out = {}
    for name, doc in {**FILES, **POP}.items():
        f = d / f"{name}.json"
        f.write_bytes(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
        out[name] = str(f)
    out["dir"] = str(d)
    out["missing"] = str(d / "missing.json")
    return out


def ev(mech, *more):
    return ["eval", "PureDP", "--mechanism", f"{{{mech}}}", "--param", "E=3", *more]


# (case id, argv with {file} placeholders, words the error line must contain)
CASES = [
    ("domain 5", ev("domain_int"), '"domain" must be a non-empty list'),
    ("rows as list", ev("rows_list"), "the rows list has 3 rows; a table over 2 values with n=1 has 2"),
    ("row as string", ev("row_string"), "row '0' is '10'"),
    ("binary file", ev("binary"), "not UTF-8"),
    ("nested 1e5 deep", ev("deep"), "nests JSON too deeply"),
    ("/dev/zero", ["eval", "PureDP", "--mechanism", "/dev/zero", "--param", "E=3"], "over 10 MB"),
    ("5001-digit entry", ev("big_entry"), "5001-digit integer"),
    ("5001-digit JSON literal", ev("big_literal"), "number too long"),
    ("5001-digit --param", ["eval", "PureDP", "--mechanism", "{good}", "--param", f"E={BIG}"], "5001-digit"),
    ("n 30", ev("n30"), "over the limit of 262144"),
    ("n 1000", ev("n1000"), "over the limit of 262144"),
    ("n 19 before reading rows", ev("huge_table"), "2^19 databases"),
    ("n string", ev("n_string"), '"n"'),
    ("n bool", ev("n_bool"), '"n"'),
    ("n float", ev("n_float"), '"n"'),
    ("n zero", ev("n_zero"), '"n"'),
    ("float entry", ev("float_entry"), "float"),
    ("NaN entry", ev("nan_entry"), "NaN is not a probability"),
    ("negative entry", ev("negative"), "negative"),
    ("row not summing to 1", ev("not_one"), "sums to 13/12"),
    ("row too short", ev("too_few_entries"), "1 entries but there are 2 outputs"),
    ("row missing", ev("missing_row"), "no row for database"),
    ("key arity", ev("key_arity"), "is not 1 comma-separated"),
    ("key outside domain", ev("key_outside"), "outside the domain"),
    ("key fraction", ev("key_fraction"), "comma-separated integer"),
    ("duplicate key", ev("duplicate_key"), "appears twice"),
    ("null entry", ev("null_entry"), "not an exact number"),
    ("list entry", ev("list_entry"), "not an exact number"),
    ("bool entry", ev("bool_entry"), "bool"),
    ("dict row bad output", ev("dict_row_bad_output"), "not in \"outputs\""),
    ("domain repeated", ev("domain_repeat"), "repeats a value"),
    ("domain float", ev("domain_float"), '"domain" entries'),
    ("outputs nested", ev("outputs_nested"), '"outputs" entries'),
    ("unknown key", ev("unknown_key"), "unknown key 'row'"),
    ("top-level list", ev("top_list"), "must be a JSON object"),
    ("top-level string", ev("top_string"), "must be a JSON object"),
    ("empty file", ev("empty"), "not JSON"),
    ("not JSON", ev("not_json"), "not JSON"),
    ("missing file", ev("missing"), "No such file"),
    ("directory as table", ev("dir"), "cannot use file"),
    ("population code", ev("good", "--population", "{pop_code}"), "is not a number"),
    ("population list", ev("good", "--population", "{pop_list}"), "population must be a non-empty JSON object"),
    ("population not 1", ev("good", "--population", "{pop_not_one}"), "sums to 5/6"),
    ("population bad key", ev("good", "--population", "{pop_bad_key}"), "comma-separated"),
    ("population over families", ["eval", "Bayesian0DP", "--mechanism", "{const7}", "--param", "E=2"],
     "at most 64 databases"),
    # code-like strings in every field
    ("code in entry", ev("code_entry"), "is not a number"),
    ("code in key", ev("code_key"), "is not 1 comma-separated"),
    ("code in outputs", ev("code_output"), "not in \"outputs\""),
    ("code in domain", ev("code_domain"), '"domain" entries must be integers'),
    ("code in n", ev("code_n"), '"n"'),
    ("code as notion", ["eval", CODE, "--mechanism", "{good}"], "unknown notion"),
    ("code as --param value", ["eval", "PureDP", "--mechanism", "{good}", "--param", f"E={CODE}"], "is not a number"),
    ("code as --param name", ["eval", "PureDP", "--mechanism", "{good}", "--param", f"{CODE}=1"], "NAME=VALUE"),
    ("code as claim ID", ["check", CODE], "unknown claim ID"),
    ("code as source", ["audit", CODE], "unknown source"),
    ("code as profile", ["audit", "T", "--profile", CODE], "no effort level"),
    ("code as implies notion", ["implies", "PureDP", CODE], "unknown notion"),
    ("code as derive", ["derive", CODE], "nothing to derive"),
    ("code as derive --param", ["derive", "pml", "laplace-count", "--param", f"eps={CODE}"], "is not a number"),
    ("code as timeout", ["check", "T-P1", "--timeout", CODE], "not a number of seconds"),
    ("code as size", ["check", "T-P1", "--n", CODE], "not a whole number"),
    # eval: parameters and arity
    ("unknown --param name", ["eval", "PureDP", "--mechanism", "{good}", "--param", "X=1"], "no parameter 'X'"),
    ("--param twice", ["eval", "PureDP", "--mechanism", "{good}", "--param", "E=2", "--param", "E=3"], "twice"),
    ("--param without =", ["eval", "PureDP", "--mechanism", "{good}", "--param", "E"], "NAME=VALUE"),
    ("--param out of range", ["eval", "PureDP", "--mechanism", "{good}", "--param", "E=1/2"], "E=1/2"),
    ("--param missing", ["eval", "PureDP", "--mechanism", "{good}"], "needs a value for E"),
    ("arity 2 in eval", ["eval", "MostlyIndistinguishable", "--mechanism", "{good}"], "arity 2"),
    ("arity 0 in eval", ["eval", "FullSupport", "--mechanism", "{good}"], "arity 0"),
    ("given population missing", ["eval", "Bayesian0DPFor", "--mechanism", "{good}", "--param", "E=2"],
     "give --population"),
    # implies
    ("arity 2 in implies", ["implies", "Discloses", "PureDP"], "arity 2"),
    ("arity 0 in implies", ["implies", "PureDP", "FullSupport"], "arity 0"),
    ("implies n 30", ["implies", "PureDP", "FreeLunchPrivacy", "--n", "30"], "over the limit of 1024"),
    ("implies too many cells", ["implies", "PureDP", "FreeLunchPrivacy", "--n", "2", "--outputs", "5000"],
     "over the limit of 8192"),
    ("implies unknown notion", ["implies", "PureDP", "Nonsense"], "unknown notion"),
    # check: sizes, timeouts, IDs, files
    ("unknown claim", ["check", "T-NOPE"], "unknown claim ID"),
    ("100 KB claim ID", ["check", LONG], "unknown claim ID"),
    ("check n 30", ["check", "T-P1", "--n", "30"], "2^30 databases, over the limit of 1024"),
    ("check n 1000", ["check", "T-P1", "--n", "1000"], "over the limit of 1024"),
    ("check n 0", ["check", "T-P1", "--n", "0"], "at least 1"),
    ("check domain -2", ["check", "T-P1", "--domain", "-2"], "at least 1"),
    ("check n 1.5", ["check", "T-P1", "--n", "1.5"], "not a whole number"),
    ("check 5001-digit n", ["check", "T-P1", "--n", BIG], "at most 1000000"),
    ("check below min sizes", ["check", "T-P4.converse", "--domain", "1"], "below the claim's smallest sizes"),
    ("timeout 0", ["check", "T-P1", "--timeout", "0"], "must be positive"),
    ("timeout negative", ["check", "T-P1", "--timeout", "-1"], "must be positive"),
    ("timeout nan", ["check", "T-P1", "--timeout", "nan"], "finite"),
    ("timeout inf", ["check", "T-P1", "--timeout", "inf"], "finite"),
    ("timeout 1e400", ["check", "T-P1", "--timeout", "1e400"], "finite"),
    ("timeout text", ["check", "T-P1", "--timeout", "soon"], "not a number of seconds"),
    ("budget nan", ["check", "T-P1", "--budget", "nan"], "finite"),
    ("budget negative", ["check", "T-P1", "--budget", "-1"], "0 or more"),
    ("smt2 into missing dir", ["check", "T-P1", "--n", "1", "--budget", "0", "--smt2", "/nonexistent/d/q.smt2"],
     "cannot write in its directory"),
    # audit
    ("audit unknown source", ["audit", "X"], "unknown source"),
    ("audit jobs 0", ["audit", "T", "--jobs", "0"], "at least 1"),
    ("audit jobs huge", ["audit", "T", "--jobs", "100000"], "at most 256"),
    ("audit json into missing dir", ["audit", "T", "--json", "/nonexistent/d/a.json"], "cannot write"),
    ("audit json is a directory", ["audit", "T", "--json", "{dir}"], "is a directory"),
    ("audit bad profile", ["audit", "T", "--profile", "fast"], "no effort level"),
    # derive
    ("derive rr p=2", ["derive", "epsilon", "randomized-response", "--param", "p=2"], "takes no --param"),
    ("derive unknown param", ["derive", "pml", "threshold", "--param", "q=1"], "--param n="),
    ("derive p out of range", ["derive", "pml", "threshold", "--param", "p=2"], "outside (0, 1)"),
    ("derive n fraction", ["derive", "pml", "threshold", "--param", "n=1/2"], "must be an integer"),
    ("derive n huge", ["derive", "pml", "threshold", "--param", f"n={'9' * 900}"], "at most 1000000"),
    ("derive lam out of range", ["derive", "pml", "laplace-count", "--param", "lam=1"], "outside (0, 1/2]"),
    ("derive nothing", ["derive", "nothing"], "nothing to derive"),
    # the parser itself
    ("no command", [], "required"),
    ("unknown command", ["frobnicate"], "invalid choice"),
    ("extra argument", ["list", "extra"], "unrecognized arguments"),
    ("100 KB unknown option", ["check", "T-P1", "--" + LONG], "unrecognized arguments"),
]

# a representative subset through the console entry (a fresh interpreter each)
SUBPROCESS = ["binary file", "nested 1e5 deep", "/dev/zero", "5001-digit --param", "n 1000", "row as string",
              "timeout nan", "derive rr p=2", "code in entry", "code as notion", "100 KB claim ID", "no command"]


def _argv(args, files):
    return [a.format(**files) if a.startswith("{") and a.endswith("}") else a for a in args]


def _assert_one_line(code, err, words):
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    line = lines[0]
    assert line.startswith("dpcheck: error: "), line
    assert words in line, line
    assert len(line) <= 2000
    assert "x" * 100 not in line and "0" * 100 not in line and "9" * 100 not in line  # input echoed ≤ ~80 chars
    assert not os.path.exists(PWNED)


@pytest.mark.parametrize("args, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_in_process(args, words, files, capsys):
    code = main(_argv(args, files))
    _assert_one_line(code, capsys.readouterr().err, words)


@pytest.mark.parametrize("args, words", [c[1:] for c in CASES if c[0] in SUBPROCESS],
                         ids=[c[0] for c in CASES if c[0] in SUBPROCESS])
def test_hostile_console_entry(args, words, files):
    p = subprocess.run([sys.executable, "-m", "theorems.cli.main", *_argv(args, files)], capture_output=True, text=True,
                       timeout=120)
    _assert_one_line(p.returncode, p.stderr, words)
    assert p.stdout == ""


def test_subprocess_subset_is_in_the_table():
    assert set(SUBPROCESS) <= {c[0] for c in CASES}


def test_good_table_still_evaluates(files, capsys):
    assert main(["eval", "PureDP", "--mechanism", files["good"], "--param", "E=3"]) == 0
    assert "holds" in capsys.readouterr().out


def test_code_as_output_label_is_only_a_label(files, capsys):
    assert main(["eval", "PureDP", "--mechanism", files["code_label"], "--param", "E=3"]) == 0
    assert "holds" in capsys.readouterr().out and not os.path.exists(PWNED)


def test_internal_error_is_exit_3_one_line(monkeypatch, capsys):
    import symbolic.solve.run

    def boom(*a, **k):
        raise ZeroDivisionError("seeded fault")
    monkeypatch.setattr(symbolic.solve.run, "check_claim", boom)
    assert main(["check", "T-L2", "--budget", "0"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dpcheck: internal error: ZeroDivisionError: seeded fault")
    assert "report it" in err


def test_exit_code_only_definite_verdicts():
    from theorems.cli.io import exit_code as _exit_code
    ok = [{"verdict": "proved"}, {"verdict": "derived"}, {"verdict": "refuted", "verified_exactly": True}]
    assert _exit_code(ok) == 0
    for bad in ({"verdict": "unknown"}, {"verdict": "vacuous"}, {"verdict": "not run"},
                {"verdict": "refuted", "verified_exactly": False}, {"verdict": "refuted", "verified_exactly": None},
                {"verdict": "something new"}):
        assert _exit_code(ok + [bad]) == 1


# --- fuzz: random JSON in every field of the table format ------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10 ** 30, max_value=10 ** 30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
    | st.sampled_from(["0", "1", "1/2", "3/4", "0,1", "-1", "1/0", "0.5", "1e3", CODE, "NaN"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4) | st.sampled_from(["0", "1"]),
                                                                 inner, max_size=4),
    max_leaves=12)
FIELDS = st.sampled_from(["n", "domain", "outputs", "rows", "row0", "row1", "entry", "key", "extra", "whole"])


def _mutate(field, value):
    doc = json.loads(json.dumps(GOOD))
    if field == "whole":
        return value
    if field == "row0":
        doc["rows"]["0"] = value
    elif field == "row1":
        doc["rows"]["1"] = value
    elif field == "entry":
        doc["rows"]["0"][0] = value
    elif field == "key":
        doc["rows"][value if isinstance(value, str) else json.dumps(value)] = doc["rows"].pop("1")
    elif field == "extra":
        doc["extra"] = value
    else:
        doc[field] = value
    return doc


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=FIELDS, value=JSON, notion=st.sampled_from(["PureDP", "Bayesian0DP", "Noninterference"]))
def test_fuzz_table_fields(field, value, notion, tmp_path, capsys):
    f = tmp_path / "fuzz.json"
    f.write_text(json.dumps(_mutate(field, value)))
    params = ["--param", "E=2"] if notion != "Noninterference" else []
    code = main(["eval", notion, "--mechanism", str(f), *params])
    err = capsys.readouterr().err
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and err.count("\n") <= 1
    assert not os.path.exists(PWNED)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON)
def test_fuzz_population(value, tmp_path, capsys):
    m, p = tmp_path / "m.json", tmp_path / "p.json"
    m.write_text(json.dumps(GOOD))
    p.write_text(json.dumps(value))
    code = main(["eval", "Bayesian0DPFor", "--mechanism", str(m), "--population", str(p), "--param", "E=3"])
    err = capsys.readouterr().err
    assert code in (0, 1, 2), err
    assert err.count("\n") <= 1


# issue 27, section 4: a user's notion that fails, and numbers too large to compute with, are input errors
USER_NOTIONS = '''from symbolic import E_SPEC, Notion
def boom(ops, A, P=None, *, E):
    raise ValueError("user bug")
Boom = Notion("Boom", (E_SPEC,), boom)
def two(ops, A):
    return True
Wrong = Notion("Wrong", (E_SPEC,), two)
NonBool = Notion("NonBool", (E_SPEC,), lambda ops, A, P=None, *, E: "yes")
'''


@pytest.mark.parametrize("command", ["implies", "eval"])
@pytest.mark.parametrize("name, words", [("Boom", "mine.py line 3: the notion Boom raised ValueError: user bug"),
                                         ("Wrong", "mine.py line 5: the notion Wrong does not take the arguments"),
                                         ("NonBool", "the notion NonBool answered 'yes' (str), not a truth value")])
def test_a_failing_user_notion_is_an_input_error(command, name, words, files, tmp_path, monkeypatch, capsys):
    (tmp_path / "mine.py").write_text(USER_NOTIONS)
    monkeypatch.chdir(tmp_path)
    args = (["implies", f"mine.py:{name}", "PureDP", "--budget", "5"] if command == "implies" else
            ["eval", f"mine.py:{name}", "--mechanism", files["good"], "--param", "E=2"])
    code = main(args)
    _assert_one_line(code, capsys.readouterr().err, words)


def test_a_failing_user_notion_makes_its_graph_pairs_unknown_with_the_line(tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text(USER_NOTIONS)
    monkeypatch.chdir(tmp_path)
    from symbolic.graph.sweep import graph_settings, run_graph
    from symbolic.core.verdicts import Sizes
    g = run_graph(["pure-dp", "mine.py:Boom"], sizes=Sizes(1, 2, 2), settings=graph_settings(2))
    assert [p.relation for p in g.pairs] == ["unknown", "unknown"]
    assert all("mine.py line 3: the notion Boom raised ValueError" in p.reason for p in g.pairs)


@pytest.mark.parametrize("entry", ["exp(exp(exp(1000)))", "exp(exp(exp(1000)))/(1+exp(exp(exp(1000))))",
                                   "2^exp(100)"])
def test_numbers_too_large_to_compute_with_are_input_errors(entry, tmp_path, files, capsys):
    table = tmp_path / "big.json"
    table.write_text(json.dumps({"n": 1, "domain": [0, 1], "outputs": [0, 1],
                                 "rows": {"0": [entry, "1"], "1": ["1/2", "1/2"]}}))
    _assert_one_line(main(["derive", "level", "pure-dp", "--mechanism", str(table)]), capsys.readouterr().err,
                     "too large to compute with")
    _assert_one_line(main(["eval", "PureDP", "--mechanism", files["good"], "--param", f"E={entry}"]),
                     capsys.readouterr().err, "too large to compute with")
