"""The audit's HTML page opened in a real headless Chromium (selenium, the system's Chromium and
chromedriver): it loads with no console error and shows the banner, the table of contents (every link
resolves), the summary, a counterexample table, a rendered formula and the pictures, each with a nonzero
size; the filters (CSS only) show the findings or the undecided claims alone; the implication graph,
drawn by ``dpcheck graph``'s renderer, is legible (no text under 11 px at 1400 px width) and its caption
names the sizes; a screenshot is written.

Marked ``browser`` (not in the default run): ``python -m pytest -m browser``. Skipped, with the
reason, when selenium, Chromium or chromedriver is missing. Set ``DPCHECK_SCREENSHOT`` to a path to
keep the screenshot there too.
"""
from __future__ import annotations

import os
import shutil

import pytest

from symbolic.report.html import audit_html
from tests.report.test_report_html import _doc

pytestmark = pytest.mark.browser

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
GRAPH = ('<svg xmlns="http://www.w3.org/2000/svg" width="220" height="90" viewBox="0 0 220 90">'
         '<ellipse cx="50" cy="45" rx="45" ry="20" fill="none" stroke="black"/><text x="50" y="50" '
         'text-anchor="middle">pure DP</text><line x1="95" y1="45" x2="130" y2="45" stroke="black"/>'
         '<ellipse cx="175" cy="45" rx="45" ry="20" fill="none" stroke="black"/><text x="175" y="50" '
         'text-anchor="middle">approx DP</text></svg>')


def _driver():
    """A headless Chromium driven by the system's chromedriver, or a skip naming what is missing."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install selenium)")
    browser = next((p for p in map(shutil.which, BROWSERS) if p), None)
    if browser is None:
        pytest.skip("no Chromium found on PATH (apt-get install -y chromium chromium-driver)")
    chromedriver = shutil.which("chromedriver")
    if chromedriver is None:
        pytest.skip("no chromedriver found on PATH (apt-get install -y chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1600", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    except WebDriverException as e:
        pytest.skip(f"Chromium did not start under chromedriver: {str(e).splitlines()[0]}")


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    yield driver
    driver.quit()


def _real_graph():
    """The implication graph of three notions at n = 1, drawn as ``dpcheck graph --svg`` draws it."""
    from symbolic.api import Sizes, graph_settings, render_svg, run_graph
    d = run_graph(["pure-dp", "approx-dp", "tv-privacy"], sizes=Sizes(1, 2, 2), settings=graph_settings(3)).diagram()
    return render_svg(d)[0], render_svg(d, separations=True)[0]


def _undecided_doc():
    doc = _doc()
    doc["claims"][0]["statement"] = "Theorem: ε-DP ⇒ Pr[A(x)∈S] ≤ e^{kε}·Pr[A(x')∈S]"
    doc["claims"].append({"id": "Q-9", "kind": "⇒", "source": "Q", "statement": "a claim left open",
                          "source_says": "holds", "verdict": "unknown", "agrees_with_source": False,
                          "reason": "effort limit", "bounds": None, "seconds": 1.0, "parts": []})
    return doc


def test_the_frame_filters_and_graph_in_chromium(browser, tmp_path):
    """The banner, the TOC's links, the CSS filters and a legible real graph with its sizes."""
    from selenium.webdriver.common.by import By
    graph, separations = _real_graph()
    page = tmp_path / "frame.html"
    page.write_text(audit_html(_undecided_doc(), graph_svg=graph, separations_svg=separations,
                               provenance="run of 2026-11-27, profile ci, wall time 1.0 s"), encoding="utf-8")
    browser.set_window_size(1400, 1600)
    browser.get(page.as_uri())
    assert [e for e in browser.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")] == []
    banner = browser.find_element(By.ID, "run-banner")
    assert banner.is_displayed() and "profile ci" in banner.text

    links = browser.find_elements(By.CSS_SELECTOR, "nav.toc a")
    assert len(links) >= 5
    for link in links:
        target = link.get_attribute("href").split("#", 1)[1]
        assert browser.find_elements(By.ID, target), target

    def shown(selector):
        return [e.get_attribute("id") for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]
    every = shown("section.claim")
    assert {"claim-Q-1", "claim-Q-2", "claim-Q-9"} <= set(every)
    browser.find_element(By.CSS_SELECTOR, 'label[for="filter-findings"]').click()
    assert shown("section.claim") == ["claim-Q-2"] and not shown("#summary")
    browser.find_element(By.CSS_SELECTOR, 'label[for="filter-undecided"]').click()
    assert shown("section.claim") == ["claim-Q-9"]
    row = [r for r in browser.find_elements(By.CSS_SELECTOR, "table.overview tr") if r.is_displayed()][-1]
    assert "undecided" in row.text and "NO" not in row.text
    browser.find_element(By.CSS_SELECTOR, 'label[for="filter-all"]').click()
    assert shown("section.claim") == every

    scripts = [m for m in browser.find_elements(By.CSS_SELECTOR, "section.claim .statement math") if m.is_displayed()]
    assert scripts and all(min(_size(m)) > 0 for m in scripts)   # a statement's e^{…} laid out as MathML

    for figure in ("graph-figure", "separations-figure"):
        caption = browser.find_element(By.CSS_SELECTOR, f"#{figure} figcaption").text
        assert "n=1, |D|=2, |O|=2" in caption, caption
        sizes = browser.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0] + ' svg text'))"
            ".filter(t => t.textContent.trim()).map(t => t.getBoundingClientRect().height)", f"#{figure}")
        assert sizes and min(sizes) >= 11, (figure, min(sizes))


def _size(element):
    rect = element.rect
    return rect["width"], rect["height"]


def test_the_page_renders_in_chromium(browser, tmp_path):
    from selenium.webdriver.common.by import By
    page = tmp_path / "audit.html"
    page.write_text(audit_html(_doc(), graph_svg=GRAPH, source_names={"Q": "a test source"}), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == "dpcheck audit"

    errors = [e for e in browser.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
    assert errors == []

    summary = browser.find_element(By.ID, "summary-table")
    assert summary.is_displayed() and min(_size(summary)) > 0
    assert "all sources" in summary.text and "refuted" in summary.text

    tables = [t for t in browser.find_elements(By.CSS_SELECTOR, "table.cx")
              if t.find_element(By.TAG_NAME, "caption").text.startswith("mechanism ")]
    assert tables and tables[0].is_displayed()
    cells = [c.text for c in tables[0].find_elements(By.TAG_NAME, "td")]
    assert cells == ["3/4", "1/4", "1/8", "7/8"]

    formulas = browser.find_elements(By.CSS_SELECTOR, ".formula math")
    assert formulas and formulas[0].is_displayed()
    width, height = _size(formulas[0])
    assert width > 0 and height > 0
    fraction = formulas[0].find_element(By.TAG_NAME, "mfrac")  # laid out as a stacked fraction, not flat text
    numerator = fraction.find_element(By.XPATH, "./*[1]")
    assert _size(fraction)[1] > 1.5 * _size(numerator)[1] > 0

    for figure in ("verdict-chart", "graph-figure"):
        svg = browser.find_element(By.CSS_SELECTOR, f"#{figure} svg")
        assert svg.is_displayed() and min(_size(svg)) > 0, figure

    shot = tmp_path / "audit.png"
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(int(height) + 140, 12000))  # the whole page in one picture
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    keep = os.environ.get("DPCHECK_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)

    link = browser.find_element(By.CSS_SELECTOR, "ul.findings a")
    link.click()
    assert browser.current_url.endswith("#claim-Q-2")
