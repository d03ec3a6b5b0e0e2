"""Every `dpcheck` command the documentation shows runs as written: each command line in a code block of
README.md or of a page under docs/ is one test case (id ``page:line``), run in a temporary directory that
holds the repository's ``docs/examples/``, the files the page showed before it and the few declared files
no page shows. The exit code is 0 unless the declared table below says otherwise (with its reason); the
output lines the page shows after the command, and a verdict word in its trailing comment, must appear in
what it prints. A command line the collector cannot read is a failing case, never a skipped one."""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)]

SHELL_LANGS = frozenset({"", "console", "bash", "sh", "shell", "shell-session", "zsh"})
OUTPUT_LANGS = frozenset({"text", "output"})
DATA_LANGS = frozenset({"python", "py", "pycon", "json", "toml", "yaml", "yml", "html", "svg", "latex", "tex"})
# The first words of a line that make it a command in a block without `$ ` prompts.
PROGRAMS = frozenset({"dpcheck", "pip", "pip3", "python", "python3", "mkdocs", "apt-get", "sudo", "cd", "git",
                      ".", "source", "export"})
SEPARATORS = frozenset({"&&", "||", ";", "|", "&"})
REDIRECTS = frozenset({">", ">>", "<", ">&", "&>", ">|", "<<"})
VERDICT_WORDS = ("proved", "refuted", "unknown", "holds", "fails")
VERDICT_COMMANDS = frozenset({"check", "implies", "eval"})    # the commands that print a verdict word
ELLIPSIS = "…"

from tests.docs.documented_tables import EXPECTED_EXIT, SLOW  # noqa: E402  (the declared tables)


def _guide_notion() -> str:
    """The definitions of the user guide's first example (its lines up to its first print)."""
    text = (ROOT / "docs" / "guide" / "writing-a-notion.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    return code[:code.index("\nprint(")] + "\n"


# Every output has probability at least 1/(1 + E): the notion the pages call `mine.py:Floor`.
FLOOR = '''
def floor(ops, A, P=None, *, E):
    return ops.And(ops.le(ops.num(1), (1 + E) * A.p(d, o)) for d in A.rows for o in A.outputs)

Floor = Notion("Floor", (E_SPEC,), floor, summary="every output has probability at least 1/(1+E)")
'''


def _records() -> str:
    """A JSON document of claim records, as `dpcheck check --json` prints it (the audit's schema)."""
    return _dpcheck(["check", "T-P4.converse", "--json"], ROOT, 900).stdout


def _repo(path: str):
    return lambda: (ROOT / path).read_text(encoding="utf-8")


# Files the commands name that no page shows, each made when a command names it: `out.json` is written
# on its page by an audit of two sources (slow), and any run's records serve `audit --from`; `g.svg` is
# the picture `dpcheck graph --svg` drew of the zoo, which the site shows.
FIXTURES = {"rr.json": _repo("docs/examples/rr.json"), "table.json": _repo("docs/examples/rr.json"),
            "mine.py": lambda: _guide_notion() + FLOOR, "g.svg": _repo("docs/zoo-graph-n1.svg"),
            "out.json": _records}


@dataclasses.dataclass(frozen=True)
class Fence:
    """One fenced code block of a page: the line of its opening fence, its language, the file it shows
    (``title="NAME"`` in the fence, or a line ending in `` `NAME`: `` just before it), its lines, and
    whether it directly follows the block before it (nothing but blank lines between)."""
    page: str
    start: int
    lang: str
    name: str | None
    lines: tuple[str, ...]
    follows: bool
    closed: bool


@dataclasses.dataclass(frozen=True)
class Documented:
    """One command line a page shows: where (``page:line``), its text, the `dpcheck` runs it makes (each
    an argument list without the program, and the file its stdout is redirected to, if any), the output
    lines the page shows after it, its trailing comment, the files the page showed before it, and why it
    cannot be run, if it cannot."""
    page: str
    line: int
    text: str
    runs: tuple[tuple[tuple[str, ...], str | None], ...] = ()
    shown: tuple[str, ...] = ()
    comment: str = ""
    files: tuple[tuple[str, str], ...] = ()
    problem: str | None = None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def key(self) -> str:
        """The command as written, without prompt or comment (the key of the declared tables)."""
        return " ".join(_split_comment(self.text)[0].split())


def fences(page: pathlib.Path) -> list[Fence]:
    """The fenced blocks of a page, in order (an indented fence, in a list item, loses its indent)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i, last_end = [], 0, None
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,}|~{3,})\s*(.*)$", lines[i])
        if not m or "`" in m.group(3):
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        j, body = i + 1, []
        while j < len(lines) and not re.fullmatch(rf"\s*{re.escape(fence[0])}{{{len(fence)},}}\s*", lines[j]):
            body.append(lines[j][indent:] if not lines[j][:indent].strip() else lines[j].lstrip())
            j += 1
        title = re.search(r'title="([^"]+)"', info)
        before = next((lines[k].strip() for k in range(i - 1, last_end if last_end is not None else -1, -1)
                       if lines[k].strip()), "")
        named = re.search(r"`([\w./-]+\.\w+)`:$", before)
        follows = last_end is not None and all(not lines[k].strip() for k in range(last_end + 1, i))
        lang = info.split()[0].strip("{}.").lower() if info else ""
        out.append(Fence(str(page.relative_to(ROOT)), i + 1, lang,
                         title.group(1) if title else named.group(1) if named else None,
                         tuple(body), follows, j < len(lines)))
        i, last_end = j + 1, j
    return out


def _words(text: str) -> list[tuple[str, bool]]:
    """The shell words of a command line without its comment, each with whether any of it was quoted
    (a quoted ``>`` or ``|`` is an argument, not an operator). Raises ValueError on an open quote."""
    words, word, quoted, started, quote, k = [], "", False, False, None, 0
    while k < len(text):
        ch = text[k]
        if quote == "'":
            quote, word = (None, word) if ch == "'" else (quote, word + ch)
        elif quote == '"':
            if ch == "\\" and text[k + 1:k + 2] in ('"', "\\", "$", "`"):
                k += 1
                word += text[k]
            else:
                quote, word = (None, word) if ch == '"' else (quote, word + ch)
        elif ch in "'\"":
            quote, quoted, started = ch, True, True
        elif ch == "\\" and k + 1 < len(text):
            k += 1
            word, quoted, started = word + text[k], True, True
        elif ch.isspace() or (ch in ";|&" and text[k + 1:k + 2] != ">" and text[k - 1:k] != ">"):
            if started:
                words.append((word, quoted))
            word, quoted, started = "", False, False
            if not ch.isspace():      # an operator: `;`, `|`, `||`, `&`, `&&`
                op = ch * 2 if text[k + 1:k + 2] == ch and ch != ";" else ch
                words.append((op, False))
                k += len(op) - 1
        else:
            word, started = word + ch, True
        k += 1
    if quote:
        raise ValueError("No closing quotation")
    return words + [(word, quoted)] if started else words


REDIRECT = re.compile(r"(\d*|&)(>>|>\||>&|>|<<|<)(.*)")


def _runs(text: str) -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """The `dpcheck` invocations of one command line (segments between ``&&``, ``;`` and ``|``; a
    segment that is another program, such as ``pip install``, is not run): each argument list with the
    file a ``>`` redirects its stdout to. Raises ValueError when the line cannot be read."""
    command = _split_comment(text)[0]
    if re.search(r"\$\(|`|<\(", command):
        raise ValueError("a command substitution is not run by this test")
    segments = [[]]
    for word, quoted in _words(command):
        if not quoted and word in SEPARATORS:
            segments.append([])
        elif not quoted and (word.startswith("(") or word.endswith(")")):
            raise ValueError("a subshell is not run by this test")
        else:
            segments[-1].append((word, quoted))
    runs = []
    for seg in segments:
        if not seg:
            raise ValueError("an empty command between operators")
        if seg[0][0] != "dpcheck":
            if any(w == "dpcheck" for w, _ in seg):
                raise ValueError(f"`dpcheck` is not the program of {shlex.join(w for w, _ in seg)!r}")
            continue
        argv, stdout_to, k = [], None, 1
        while k < len(seg):
            word, quoted = seg[k]
            m = None if quoted else REDIRECT.fullmatch(word)
            k += 1
            if m is None:
                argv.append(word)
                continue
            fd, op, target = m.groups()
            if not target:
                if k >= len(seg):
                    raise ValueError(f"{word!r} without a target")
                target, k = seg[k][0], k + 1
            if op.startswith("<"):
                raise ValueError("input redirection is not run by this test")
            if fd in ("", "1", "&") and op != ">&":
                stdout_to = target
        runs.append((tuple(argv), stdout_to))
    return tuple(runs)


def _split_comment(text: str) -> tuple[str, str]:
    """A command line and its trailing ``# comment`` (a ``#`` that starts a word, outside quotes)."""
    quote = None
    for k, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or text[k - 1].isspace()):
            return text[:k].rstrip(), text[k + 1:].strip()
    return text, ""


def _is_command(line: str, prompted: bool) -> bool:
    if prompted:
        return line.startswith("$ ") or line == "$"
    return bool(line) and not line[0].isspace() and line.split()[0] in PROGRAMS


def _block_commands(block: Fence, shown_after: tuple[str, ...], files) -> list[Documented]:
    """The `dpcheck` command lines of one shell block, each with the output lines shown after it (in the
    block, or ``shown_after``, the output block that follows, for the last one)."""
    prompted = any(line.startswith("$ ") for line in block.lines)
    items, k = [], 0
    while k < len(block.lines):
        line, number = block.lines[k], block.start + 1 + k
        k += 1
        if not _is_command(line, prompted):
            if items and items[-1] is not None and line.strip() and (prompted or not line.startswith("#")):
                items[-1][2].append(line)          # output shown after the command
            elif re.match(r"\s*(\$ )?dpcheck\s", line):
                items.append([number, line.strip(), [], "an indented command with no command before it"])
            continue
        text = line[2:] if prompted else line
        while text.rstrip().endswith("\\") and k < len(block.lines):
            more = block.lines[k]
            text = text.rstrip()[:-1] + " " + (more[2:] if more.startswith("> ") else more).strip()
            k += 1
        dpcheck = re.search(r"(^|[\s;&|(`])dpcheck(\s|$)", text)
        items.append([number, text.strip(), [], None] if dpcheck else None)   # else: another program
    if items and items[-1] is not None:
        items[-1][2].extend(shown_after)
    found = []
    for number, text, shown, problem in filter(None, items):
        doc = Documented(block.page, number, text, shown=tuple(s for s in shown if s.strip()),
                         comment=_split_comment(text)[1], files=tuple(files), problem=problem)
        try:
            if text.endswith("\\"):
                raise ValueError("a line continuation at the end of the block")
            runs = () if problem else _runs(text)
            if not runs and not problem:
                raise ValueError("no `dpcheck` invocation found in the line")
            found.append(dataclasses.replace(doc, runs=runs))
        except ValueError as e:
            found.append(dataclasses.replace(doc, problem=str(e)))
    return found


def collect() -> list[Documented]:
    """Every `dpcheck` command line in the shell blocks of the pages, with what the page shows around it.
    A command in a block of another kind (not data, code or the output of a command) is a problem."""
    found = []
    for page in PAGES:
        blocks, files, output = fences(page), [], False
        for b, block in enumerate(blocks):
            nxt = blocks[b + 1] if b + 1 < len(blocks) else None
            if not block.closed:
                found.append(Documented(block.page, block.start, "", problem="the code block is not closed"))
            elif block.lang in SHELL_LANGS:
                after = nxt.lines if nxt and nxt.follows and nxt.lang in OUTPUT_LANGS else ()
                found += _block_commands(block, after, files)
            elif block.lang not in DATA_LANGS and not (output and block.follows):
                found += [Documented(block.page, block.start + 1 + k, line, problem=f"a command in a "
                                     f"`{block.lang}` block: label it console, or show it after a command")
                          for k, line in enumerate(block.lines) if re.match(r"(\$ )?dpcheck\s", line)]
            if block.name and block.lang not in SHELL_LANGS:
                files.append((block.name, "\n".join(block.lines) + "\n"))
            output = block.lang in SHELL_LANGS or (output and block.follows and block.lang in OUTPUT_LANGS)
    return found


COMMANDS = collect()


def _shows(expected: str, lines: list[str]) -> bool:
    """Whether an output line the page shows is among ``lines`` (whitespace normalised; ``…`` stands
    for any elided text)."""
    want = " ".join(expected.split())
    if want in ("", ELLIPSIS):
        return True
    pattern = re.compile(".*?".join(re.escape(part) for part in want.split(ELLIPSIS)))
    return any(pattern.fullmatch(" ".join(line.split())) for line in lines)


def _ends(text: str, size: int = 1500) -> str:
    """The beginning and the end of a long output (a JSON document's summary is at its top)."""
    return text if len(text) <= 2 * size else f"{text[:size]}\n…\n{text[-size:]}"


def _dpcheck(argv, cwd, timeout):
    """Run the installed command line as tests/cli/test_cli.py does, in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "theorems.cli.main", *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


@pytest.fixture(scope="session")
def shared(tmp_path_factory) -> pathlib.Path:
    """A directory the test processes of one session share (under xdist, the parent of each worker's)."""
    base = tmp_path_factory.getbasetemp()
    path = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "documented-commands"
    path.mkdir(exist_ok=True)
    return path


def _once(shared: pathlib.Path, key: str, compute):
    """``compute()`` once per session for a command several pages show alike: the first process to take
    the lock runs it and stores its result, the others wait and read it."""
    path = shared / (hashlib.sha256(key.encode()).hexdigest()[:20] + ".json")
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return tuple(json.loads(path.read_text(encoding="utf-8")))
        result = compute()
        path.write_text(json.dumps(result), encoding="utf-8")
        return result


def _outcome(doc: Documented, tmp: pathlib.Path) -> tuple[int, str, str]:
    """Run the command's invocations in turn in ``tmp``, with a copy of ``docs/examples/``, the files the
    page showed before it and the declared files it names."""
    shutil.copytree(ROOT / "docs" / "examples", tmp / "docs" / "examples")
    named = {w.split(":")[0] for argv, _ in doc.runs for w in argv}
    files = [(name, make()) for name, make in FIXTURES.items() if name in named] + list(doc.files)
    for name, text in files:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text, encoding="utf-8")
    timeout = 3600 if doc.key in SLOW else 900      # a safety net only: no verdict depends on it
    code, out, err = 0, "", ""
    for argv, stdout_to in doc.runs:
        p = _dpcheck(argv, tmp, timeout)
        if stdout_to:
            (tmp / stdout_to).write_text(p.stdout, encoding="utf-8")
        code, out, err = p.returncode, out + p.stdout, err + p.stderr
        if code:
            break
    return code, out, err


@pytest.mark.parametrize("doc", [pytest.param(doc, id=doc.id, marks=[pytest.mark.slow] if doc.key in SLOW else [])
                                 for doc in COMMANDS])
def test_the_documented_command_runs_as_the_page_says(doc: Documented, tmp_path, shared):
    assert doc.problem is None, f"{doc.id}: cannot run `{doc.text}`: {doc.problem}"
    key = json.dumps([doc.runs, doc.files])
    code, out, err = _once(shared, key, lambda: _outcome(doc, tmp_path))
    want, why = EXPECTED_EXIT.get(doc.key, (0, "every verdict definite"))
    assert code == want, (f"{doc.id}: `{doc.text}` exited {code}, the page implies {want} ({why})\n"
                          f"stdout: {_ends(out)}\nstderr: {_ends(err)}")
    assert "Traceback" not in err, err[-2000:]
    lines = (out + "\n" + err).splitlines()
    missing = [s for s in doc.shown if not _shows(s, lines)]
    assert not missing, f"{doc.id}: the page shows {missing}, not printed:\n{out[-3000:]}"
    verdicts = doc.runs[-1][0][:1] and doc.runs[-1][0][0] in VERDICT_COMMANDS
    said = [w for w in VERDICT_WORDS if verdicts and re.search(rf"\b{w}\b", doc.comment)]
    absent = [w for w in said if not re.search(rf"\b{w}\b", out)]
    assert not absent, f"{doc.id}: the comment says {absent}, the output does not:\n{out[-3000:]}"


def test_the_collector_finds_the_documented_commands():
    """The collector reads what the pages hold: the README's commands, those of the guide, at their lines."""
    pages = {c.page for c in COMMANDS}
    assert {"README.md", "docs/getting-started.md", "docs/guide/command-line.md"} <= pages
    assert len(COMMANDS) >= 30
    for doc in COMMANDS:
        line = (ROOT / doc.page).read_text(encoding="utf-8").splitlines()[doc.line - 1]
        assert "dpcheck" in line, (doc.id, line)


def test_the_declared_tables_name_documented_commands():
    """No entry of the declared tables is stale: each names a command some page shows."""
    keys = {c.key for c in COMMANDS}
    for table in (EXPECTED_EXIT, SLOW):
        assert not set(table) - keys, f"declared for commands no page shows: {sorted(set(table) - keys)}"


def test_the_files_the_pages_show_are_the_repository_files_of_that_name():
    """A page that shows a file under a path of the repository (``docs/examples/rr3.json``) shows it as
    it is: the same JSON document, or the same text."""
    for page in PAGES:
        for block in fences(page):
            path = ROOT / block.name if block.name else None
            if path is None or not path.is_file():
                continue
            shown = "\n".join(block.lines)
            if path.suffix == ".json":
                assert json.loads(shown) == json.loads(path.read_text(encoding="utf-8")), (block.page, block.start)
            else:
                assert shown.strip() == path.read_text(encoding="utf-8").strip(), (block.page, block.start)


@pytest.mark.parametrize("text, problem", [
    ("dpcheck check 'T-P1", "No closing quotation"),
    ("sudo dpcheck list", "is not the program"),
    ("dpcheck eval $(cat name) --mechanism rr.json", "command substitution"),
    ("dpcheck eval PureDP < rr.json", "input redirection"),
    ("dpcheck list &&", "an empty command"),
    ("dpcheck list >", "without a target"),
])
def test_a_line_the_collector_cannot_read_is_a_problem_not_a_skip(text, problem):
    with pytest.raises(ValueError, match=problem):
        _runs(text)


def test_the_collector_reads_prompts_continuations_comments_pipes_and_output(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("Some `x.json`:\n\n```json\n{\"a\": 1}\n```\n\n```console\n"
                    "$ dpcheck implies pure-dp \\\n>   approx-dp --n 1   # proved\nproved …\n"
                    "$ pip install x && dpcheck list | head -3 > out.txt\n```\n\n```text\nmore output\n```\n"
                    "\n```\ndpcheck check T-P1 --json\n{\"tool\": …}\n# a comment\ndpcheck eval 'x\n```\n",
                    encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PAGES", [page])
    docs = collect()
    assert [(d.line, d.runs, d.shown, d.comment) for d in docs[:3]] == [
        (8, ((("implies", "pure-dp", "approx-dp", "--n", "1"), None),), ("proved …",), "proved"),
        (11, ((("list",), None),), ("more output",), ""),
        (19, ((("check", "T-P1", "--json"), None),), ('{"tool": …}',), "")]
    assert docs[0].files == (("x.json", '{"a": 1}\n'),) and docs[3].problem and "quotation" in docs[3].problem
    assert _shows("proved …", ["proved  n=1, |D|=2"]) and not _shows("refuted", ["proved"])


def test_a_command_the_collector_would_not_run_is_a_problem(tmp_path, monkeypatch):
    """A command in a block of another kind, an indented one, a block left open: each a failing case."""
    page = tmp_path / "page.md"
    page.write_text("```text\ndpcheck notions\n```\n\nProse.\n\n```\n  dpcheck list\n```\n\n```bash\ndpcheck list\n",
                    encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PAGES", [page])
    assert [(d.line, bool(d.problem)) for d in collect()] == [(2, True), (8, True), (11, True)]


@pytest.mark.parametrize("text, runs", [
    ("dpcheck check T-P1 --n 2 > out.txt 2>&1", ((("check", "T-P1", "--n", "2"), "out.txt"),)),
    ("dpcheck implies A B --assume 'E>2' 2>/dev/null | head", ((("implies", "A", "B", "--assume", "E>2"), None),)),
    ('dpcheck eval "a b" x\\ y --target="p|q" >>log  # a # note', ((("eval", "a b", "x y", "--target=p|q"), "log"),)),
    ("dpcheck list; dpcheck notions", ((("list",), None), (("notions",), None))),
])
def test_the_collector_reads_words_as_a_shell_does(text, runs):
    assert _runs(text) == runs
