"""The documentation site: its generated pages are complete, the README is short and its links resolve.
(`mkdocs build --strict` itself runs in CI, where it fails on a broken link or a missing reference.)"""
import importlib.util
import json
import pathlib
import re
import subprocess
import sys

import symbolic.api as api

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _hooks():
    spec = importlib.util.spec_from_file_location("generated_pages", ROOT / "docs" / "_hooks" / "generated_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_zoo_page_lists_every_notion_the_program_lists():
    page = _hooks().notions_page()
    out = subprocess.run([sys.executable, "-m", "theorems.cli.main", "notions", "--json"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    ids = [n["id"] for n in json.loads(out)["notions"]]
    assert len(ids) >= 50
    rows = re.findall(r"^\| `([^`]+)` \|", page, re.M)
    assert rows == ids


def test_the_api_page_documents_every_public_name_from_its_defining_module():
    hooks = _hooks()
    listed = [name for _, names in hooks._api_groups() for name, _ in names]
    assert sorted(listed) == sorted(api.__all__)
    for _, names in hooks._api_groups():
        for name, path in names:
            module, attr = path.rsplit(".", 1)
            assert attr == name and importlib.import_module(module) is not None
            assert getattr(importlib.import_module(module), name) is getattr(api, name), path
    assert hooks.api_page().count("\n::: ") + hooks.api_page().startswith("::: ") == len(api.__all__)


def test_the_findings_page_carries_every_recorded_finding():
    from theorems.registry import claims
    found = [c for c in claims().values() if c.finding]
    page = _hooks().findings_page()
    assert len(found) >= 10 and page.count("\n### ") == len(found)
    for c in found:
        assert f"### {c.id}\n" in page and c.finding in page


def test_the_readme_is_short_with_two_commands_and_links_that_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    setup = readme[readme.index("## Set-up"):readme.index("## What it answers")]
    assert len(re.findall(r"^```\n(.+?)\n```", setup, re.M)) == 2
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert len(links) >= 8
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing


def test_every_page_of_the_navigation_exists_and_every_page_is_in_it():
    nav = re.findall(r":\s+(\S+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)
    assert sorted(nav) == pages



RUN_COUNTS = re.compile(r"\b(?:about\s+)?\d[\d,]*\s+(?:tests|findings)\b", re.IGNORECASE)
CLAIM_COUNT = re.compile(r"\b(\d[\d,]*)\s+claims\b")


def _pages():
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_no_page_writes_a_count_of_tests_or_findings_by_hand():
    """How many tests run and how many claims a run finds in disagreement change with the run: a page
    gets them from the build (a ``generated`` marker) or does not give them."""
    stated = [f"{page.relative_to(ROOT)}:{number}: {m.group(0)}" for page in _pages()
              for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
              for m in RUN_COUNTS.finditer(line)]
    assert not stated, "counts written by hand:\n" + "\n".join(stated)


def test_every_count_of_claims_on_a_page_is_the_catalogues():
    from theorems.registry import claims
    checked = sum(1 for c in claims().values() if c.kind != "def")
    wrong = [f"{page.relative_to(ROOT)}:{number}: {m.group(0)} (the catalogue has {checked})" for page in _pages()
             for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             for m in CLAIM_COUNT.finditer(line) if int(m.group(1).replace(",", "")) != checked]
    assert not wrong, "\n".join(wrong)
