"""Small parts of the reports: HTML escaping and anchors of claim records, the relation table of a
claim's parts, and curve plots (refusing mismatched data)."""
from types import SimpleNamespace

import pytest

from symbolic.core.errors import InvalidParameter
from symbolic.core.verdicts import Sizes
from symbolic.report.html_claim import agrees_badge, agrees_of, anchor, esc, verdict_badge
from symbolic.report.plots import plot_curves
from symbolic.report.tables import relation_table


def test_claim_text_is_escaped_and_anchors_are_safe():
    assert esc('<script>"x"</script>') == "&lt;script&gt;&quot;x&quot;&lt;/script&gt;" and esc(None) == ""
    assert anchor("T-P4.converse") == "claim-T-P4.converse" and anchor("a b<c") == "claim-a_b_c"
    assert 'v-refuted' in verdict_badge("refuted") and ">no<" in agrees_badge(False) and "n/a" in agrees_badge(None)
    assert ">undecided<" in agrees_badge(False, {"verdict": "unknown"}) and ">no<" in agrees_badge(False, {"verdict": "refuted"})
    # a compound claim is judged part by part when the record says so
    assert agrees_of({"as_source_says": True, "agrees_with_source": False}) is True
    assert agrees_of({"agrees_with_source": False}) is False


def _part(name, sizes=()):
    return SimpleNamespace(verdict=SimpleNamespace(name=name, sizes_proved=[(s,) for s in sizes]), seconds=0.5)


def test_the_relation_table_reads_the_relation_from_the_verdicts():
    res = SimpleNamespace(parts=[_part("proved", [Sizes(1, 2, 2)]), _part("refuted"),
                                 _part("proved"), _part("proved"), _part("proved"), _part("unknown")])
    text = relation_table(res, [("1", "D1", "→", 0), ("2", "D2", "↔", 2), ("3", "D3", "↔", 4)], "title")
    rows = text.splitlines()[2:]
    assert [r.split()[3] for r in rows] == ["→", "↔", "?"]      # the machine's column
    assert "(1, 2, 2)" in rows[0]


def test_curves_are_written_and_mismatched_data_refused(tmp_path):
    out = plot_curves(tmp_path / "c.png", [("a", [0, 1, 2], [1, 2, 4], 3)], xlabel="x", ylabel="y", title="t")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InvalidParameter, match="as many y values"):
        plot_curves(tmp_path / "d.png", [("b", [0, 1], [1])], xlabel="x", ylabel="y", title="t")
