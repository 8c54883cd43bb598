"""The Space in real headless Chromium: the model's tau on the slider, the paper's case on the page, user
markup staying inert, an unsupported figure highlighted and compared with a number of its kind, Compare's table and
the heat map's key within 1280 px, the Check figures tab opening on its scored example (its summary naming each
figure that is not supported, its highlights adding no space), a source over the limit checked part by part with a
notice, every figure's row shown, the Batch table's columns within 1280 px with a key to its marks, one colour key in
every tab, headers that do not break inside words, α kept in capitals, the title in one font, and Chinese drawn with
real glyphs (a CJK font is installed by install_browser.sh).

The screenshots docs/space.md shows are written here, one a tab, 1280 px wide: docs/space_<tab>.png (`docs_shot`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WIDTH = 1280  # px: the window the layout is checked at, and the docs' screenshots' width
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(space_url):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (scripts/install_browser.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        tab = browser.new_page(viewport={"width": WIDTH, "height": 1100})
        tab.set_default_timeout(120_000)
        tab.goto(space_url)
        try:
            yield tab
        finally:
            browser.close()


def docs_shot(page, data_paths, tab: str) -> None:
    """docs/space_<tab>.png, the screenshot docs/space.md shows of a tab: the whole page, 1280 px wide."""
    assert page.viewport_size["width"] == WIDTH
    page.screenshot(path=str(data_paths.repo / "docs" / f"space_{tab}.png"), full_page=True, animations="disabled",
                    caret="hide")


def fonts_of(page, selector: str) -> list[str]:
    """The fonts Chromium drew the text of the elements matching `selector` with, their descendants' included (glyph
    by glyph, through DevTools), each once."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": f"{selector}, {selector} *"})["nodeIds"]
        fonts = [f["familyName"] for node in nodes
                 for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
        return list(dict.fromkeys(fonts))
    finally:
        cdp.detach()


# Where the last character of an element's text is drawn, relative to the element, with its marks as they are and
# with the same text as one plain run in a clone: equal when a highlight adds no space, padding or margin.
LAST_CHARACTER = """e => {
    const plain = e.cloneNode(false);
    plain.textContent = e.textContent;
    e.after(plain);
    const last = el => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let node = null;
        while (walker.nextNode()) if (walker.currentNode.length) node = walker.currentNode;
        const range = document.createRange();
        range.setStart(node, node.length - 1);
        range.setEnd(node, node.length);
        const r = range.getBoundingClientRect(), box = el.getBoundingClientRect();
        return [r.left - box.left, r.top - box.top];
    };
    const out = [last(e), last(plain)];
    plain.remove();
    return out;
}"""


def fill(page, elem_id: str, text: str) -> None:
    box = page.locator(f"#{elem_id} textarea, #{elem_id} input").first
    box.fill(text)


def rgb(colour: str, alpha: float | None = None) -> str:
    """A #rrggbb colour as the browser's computed style writes it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})" if alpha is None else f"rgba({r}, {g}, {b}, {alpha:g})"


# For each header of a table: how many lines it takes, how many words it has, and whether its text overflows its cell.
HEADER_LINES = """th => {
    const text = th.querySelector('.header');
    const range = document.createRange();
    range.selectNodeContents(text);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    return [text.innerText, lines, text.innerText.trim().split(/\\s+/).length, th.scrollWidth > th.clientWidth];
}"""


def table_rows(table) -> dict[str, list[str]]:
    """The rows of a gr.Dataframe (a locator), each by its first cell's text."""
    rows = [row.locator("[role=gridcell]").all_inner_texts() for row in table.locator("[role=row]").all()]
    return {cells[0].strip(): [c.strip() for c in cells] for cells in rows if cells}


def headers_whole(page, table: str) -> list[str]:
    """The headers of `table` (a CSS selector), each asserted unbroken: no word split over two lines, none wider
    than its column ("directio/n", "bertscore/_f1" were)."""
    out = []
    for text, lines, words, overflows in (th.evaluate(HEADER_LINES) for th in page.locator(f"{table} th").all()):
        assert lines <= words and not overflows, (text, lines, words, overflows)
        out.append(text)
    return out


def test_the_first_screen_shows_the_compare_examples_scores_without_a_click(page, space_url, data_paths):
    from playwright.sync_api import expect

    from nash_metric.config import DEFAULT_MODEL
    from nash_metric.space.app import EXAMPLES
    from nash_metric.space.scorers import get_scorer

    scores = get_scorer(DEFAULT_MODEL, "auto").explain(*EXAMPLES[0])["scores"]  # the server runs in this process
    # A visitor's first screen, in a page of its own: no earlier test's clicks on it.
    fresh = page.context.browser.new_page(viewport={"width": 1280, "height": 1100})
    try:
        fresh.goto(space_url)
        for name, key in (("NASH", "nash"), ("S_text", "text"), ("S_num", "numeric")):
            expect(fresh.locator(f'#compare-scores [data-metric="{name}"] .nash-card-value')).to_have_text(
                f"{scores[key]:.4f}", timeout=120_000)
        expect(fresh.locator('#compare-scores [data-metric="BERTScore F1"] .nash-card-value')).to_have_text(
            re.compile(r"^0\.\d{4}$"))
        expect(fresh.locator('[data-testid="text-A"] mark')).to_have_text(re.compile(r"^4%A1"))
        expect(fresh.locator('[data-testid="text-B"] mark')).to_have_text(re.compile(r"^40%B1"))
        expect(fresh.locator("#compare-heatmap")).to_be_visible()  # shown once it holds the example's figure
        expect(fresh.locator("#compare-heatmap img")).to_have_count(1)
        assert fresh.locator("#compare-a textarea").input_value() == EXAMPLES[0][0]
        data_paths.artifacts.mkdir(exist_ok=True)
        fresh.screenshot(path=str(data_paths.artifacts / "space_first_screen.png"), full_page=True)
    finally:
        fresh.close()


def test_the_title_reads_nash_in_one_font(page):
    """gradio's SemiBold Source Sans holds a few dozen glyphs (A and B among them): the title was drawn in two fonts,
    its A smaller ("NᴀSH"). The Space's theme uses the full Bold files for semibold text."""
    from playwright.sync_api import expect

    title = page.locator("h1").first
    expect(title).to_have_text("NASH: numerically aware similarity")
    fonts = fonts_of(page, "h1")
    assert len(fonts) == 1 and fonts[0].startswith("Source Sans"), fonts  # every glyph from one file
    assert len(fonts_of(page, "#compare-table th")) == 1  # the tables' semibold monospace headers too


def test_the_heat_map_is_shown_only_while_a_result_has_one(page):
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Compare").click()
    fill(page, "compare-a", "Revenue increased strongly.")
    fill(page, "compare-b", "Revenue increased by 40%.")
    page.locator("#compare-button").click()
    expect(page.get_by_test_id("text-A")).to_contain_text("strongly", timeout=60_000)
    expect(page.locator("#compare-texts")).to_contain_text("No alignment to show")
    expect(page.locator("#compare-heatmap")).to_be_hidden()  # no blank box for a result without a figure
    fill(page, "compare-a", "Revenue increased by 4%.")
    page.locator("#compare-button").click()
    expect(page.locator("#compare-heatmap img")).to_be_visible(timeout=60_000)


def test_tau_slider_shows_the_models_own_tau_until_unticked(page):
    from playwright.sync_api import expect

    from nash_metric.config import DEFAULT_MODEL
    from nash_metric.space.scorers import get_scorer

    model_tau = get_scorer(DEFAULT_MODEL, "auto").threshold  # the server runs in this process: same cache
    slider = page.locator("#tau input[type=number]")
    expect(slider).to_have_value(f"{model_tau:g}")  # filled in when the page loads the model
    expect(slider).to_be_disabled()
    page.get_by_label("Use the model's τ").uncheck()
    expect(slider).to_be_enabled()
    page.get_by_label("Use the model's τ").check()
    expect(slider).to_be_disabled()


def test_rank_tab_shows_bertscore_blind_and_nash_right(page, data_paths):
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Rank").click()
    fill(page, "rank-anchor", "Revenue increased by 4%.")
    fill(page, "rank-candidates", "Revenue increased by 3.56%.\nRevenue increased by 40%.")
    page.locator("#rank-button").click()
    # The tab may still show the example's ranking: wait (retrying) for this request's, not for any verdict.
    expect(page.get_by_test_id("bertscore-top")).to_have_text("Revenue increased by 40%.", timeout=60_000)
    expect(page.get_by_test_id("nash-top")).to_have_text("Revenue increased by 3.56%.")
    verdict = page.get_by_test_id("verdict")
    assert "NASH puts a different candidate first." in verdict.inner_text()
    # The Compare tab's opening example states its tau too: this is the ranking's.
    assert "default for this model" in page.locator("#rank-output").get_by_test_id("tau").inner_text()
    docs_shot(page, data_paths, "rank")


def test_markup_in_user_text_is_shown_not_run(page, data_paths):
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Compare").click()
    attack = '<img src=x onerror="window.__nash_xss=1"> <script>window.__nash_xss=2</script> rose 4%'
    fill(page, "compare-a", attack)
    fill(page, "compare-b", "Revenue rose 40%")
    page.locator("#compare-button").click()
    text_a = page.get_by_test_id("text-A")
    expect(text_a).to_contain_text("<img src=x", timeout=60_000)  # this request's result, not an earlier one
    assert "<script>" in text_a.inner_text()
    assert page.evaluate("window.__nash_xss === undefined")
    assert page.locator("#compare-texts img").count() == 0
    data_paths.artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(data_paths.artifacts / "space_compare.png"), full_page=True)


def test_an_unsupported_figure_of_the_prediction_is_highlighted(page, data_paths):
    from playwright.sync_api import expect

    from nash_metric.verdicts.spec import VERDICT_COLOURS

    page.get_by_role("tab", name="Compare").click()
    fill(page, "compare-a", "The company raised its dividend to $0.15 per share and cut net debt below $25 billion.")
    fill(page, "compare-b",
         "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")
    page.locator("#compare-button").click()
    expect(page.get_by_test_id("text-A")).to_contain_text("$25 billion")  # replaces the previous test's result
    flagged = page.locator('[data-testid="text-A"] mark[data-verdict="unsupported"]')
    expect(flagged).to_have_count(1)
    assert flagged.inner_text().startswith("$0.15")
    assert flagged.get_attribute("title").endswith("unsupported: the reference says $0.13")
    assert flagged.evaluate("e => getComputedStyle(e).outlineColor") == rgb(VERDICT_COLOURS["unsupported"])
    supported = page.locator('[data-testid="text-A"] mark[data-verdict="supported"]')
    assert supported.inner_text().startswith("$25 billion")
    assert supported.evaluate("e => getComputedStyle(e).outlineStyle") == "none"
    assert page.locator('[data-testid="text-B"] mark[data-verdict]').count() == 0
    assert "numeric support 0.50" in page.get_by_test_id("support").inner_text()
    expect(page.locator('[data-metric="Numeric support"]')).to_contain_text("0.5000")
    data_paths.artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(data_paths.artifacts / "space_compare_support.png"), full_page=True)


def test_the_compare_table_and_heat_map_key_fit_1280_px(page, data_paths):
    """A long status ("accepted; another kind of figure (scores 0)") pushed the Aligned numbers table's verdict
    column past a 1280-pixel window; 7.0% read "the reference says $845.3 million" (money, for a percentage); the
    heat map's legend was a 12-line centred paragraph in the figure. Now: the table within its box, the closest
    number of the figure's kind or none, and a key of three left-aligned rows under the map."""
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Compare").click()
    fill(page, "compare-a", "Revenue grew 7.0% to $845.3 million in fiscal 2023, with 12,500 employees and EPS of "
                            "$3.14.")
    fill(page, "compare-b", "Revenue was $845.3 million in fiscal 2023, against $790.1 million, with 12,480 employees "
                            "and EPS of $3.41.")
    page.locator("#compare-button").click()
    expect(page.get_by_test_id("text-A")).to_contain_text("employees", timeout=60_000)
    table = page.locator("#compare-table")
    expect(table).to_contain_text("another kind of figure")
    expect(table.locator("[role=row]")).to_have_count(11)  # the header and 5 numbers each way
    viewport = table.locator(".virtual-table-viewport")
    assert viewport.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the table scrolls sideways"
    verdict = table.locator("th").last
    assert verdict.inner_text().strip() == "verdict (A's figure)"
    right = verdict.evaluate("e => e.getBoundingClientRect().right")
    assert right <= viewport.evaluate("e => e.getBoundingClientRect().right") + 1 and right <= WIDTH
    assert headers_whole(page, "#compare-table")[-1] == "verdict (A's figure)"
    percent = page.locator('[data-testid="text-A"] mark[data-verdict="unsupported"]').first
    assert percent.inner_text().startswith("7.0%")
    assert "$845.3 million" not in percent.get_attribute("title")  # a percentage is never shown against money
    key = page.get_by_test_id("heat-map-key")
    expect(key).to_be_visible()
    rows = key.locator(".nash-key")
    expect(rows).to_have_count(3)
    lines = [row.evaluate("e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e)"
                          ".lineHeight || '16'))") for row in rows.all()]
    assert sum(lines) <= 6, lines  # a few lines, not a paragraph
    assert {row.evaluate("e => getComputedStyle(e).justifyContent") for row in rows.all()} <= {"normal", "flex-start"}
    left = key.evaluate("e => e.getBoundingClientRect().left")
    assert abs(left - page.locator("#compare-heatmap").evaluate("e => e.getBoundingClientRect().left")) < 40
    docs_shot(page, data_paths, "compare")


def test_check_tab_opens_on_its_scored_example(page, data_paths):
    from playwright.sync_api import expect

    from nash_metric.space.app import CHECK_TEXT
    from nash_metric.verdicts.spec import VERDICT_COLOURS

    page.get_by_role("tab", name="Check figures").click()
    summary = page.get_by_test_id("check-summary")  # scored when the page loaded, nothing clicked
    expect(summary).to_contain_text("1 supported, 1 misplaced, 1 unsupported, 0 contradicted, 0 computed (3 figures; "
                                    "1 supported period that places a figure, not counted)", timeout=120_000)
    # The summary names each figure that is not supported, with its verdict, in its colour (it named only computed).
    named = summary.locator(".nash-flagged")
    expect(named).to_have_count(2)
    expect(named.first).to_have_text(re.compile(r"^↷ \$790\.3 million \(misplaced: .* states 812\.7\)$"))
    expect(named.last).to_have_text("✗ $0.55 (unsupported: the reference says $0.52)")
    for item, verdict in zip(named.all(), ("misplaced", "unsupported")):
        expect(item).to_have_css("color", rgb(VERDICT_COLOURS[verdict]))
    marked = page.locator("#check-marked mark[data-verdict]")
    expect(marked).to_have_count(4)
    verdicts = {"2019": "supported", "$1,452.4 million": "supported",
                "$790.3 million": "misplaced",  # the 2018 column's value
                "$0.55": "unsupported"}  # stated nowhere
    assert sorted(m.inner_text() for m in marked.all()) == sorted(verdicts)
    for text, verdict in verdicts.items():
        mark = marked.filter(has_text=text)
        assert mark.get_attribute("data-verdict") == verdict
        expect(mark).to_have_css("box-shadow", f"{rgb(VERDICT_COLOURS[verdict])} 0px -2px 0px 0px inset")
    # The text as written: no character added, and no space drawn around a highlight ("in  2023  .").
    text = page.get_by_test_id("marked-text")
    assert text.evaluate("e => e.textContent") == CHECK_TEXT
    marks, plain = text.evaluate(LAST_CHARACTER)
    assert abs(marks[0] - plain[0]) < 0.5 and abs(marks[1] - plain[1]) < 0.5, (marks, plain)
    table = page.locator("#check-table")
    expect(table).to_contain_text("line 10 (Consumer · 2018): | Consumer | 812.7 | [790.3] |")
    expect(table).to_contain_text("period: 2018, not 2019 · 812.7 · line 10 (Consumer · 2019)")
    docs_shot(page, data_paths, "check")


def test_a_source_over_the_limit_is_checked_part_by_part_with_a_notice(page, data_paths, long_source):
    """A source longer than the limit is checked from its start, a notice says which characters and how to check
    the rest, a figure whose value stands in the rest is "not in the part checked", and "Check the next part" checks
    the rest. The browser used to cut a longer paste silently (the box's max_length)."""
    from playwright.sync_api import expect

    from nash_metric.space.limits import source_part

    source, tail = long_source
    first = source_part(source)
    page.get_by_role("tab", name="Check figures").click()
    expect(page.get_by_test_id("check-summary")).to_be_visible(timeout=120_000)  # the opening example, scored
    fill(page, "check-source", source)
    fill(page, "check-text", "Industrial net sales were $1,452.4 million in 2019; 12,345 people worked there.")
    assert len(page.locator("#check-source textarea").input_value()) == len(source)  # nothing cut by the box
    page.locator("#check-button").click()
    notice = page.get_by_test_id("source-cut")
    expect(notice).to_contain_text(f"checked characters 1–{first.end:,} of {len(source):,}", timeout=180_000)
    expect(notice.locator("code")).to_have_text("nash check --source FILE --text FILE")
    expect(notice).to_contain_text("(no limit)")
    expect(notice).to_be_visible()
    table = page.locator("#check-table")
    expect(table).to_contain_text("not in the part checked")
    assert table_rows(table)["12,345"][2] == "not in the part checked"  # its value stands in the rest
    expect(table).not_to_contain_text("nowhere in the source")
    expect(page.locator("#check-next")).to_be_visible()
    data_paths.artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(data_paths.artifacts / "space_check_cut.png"), full_page=True)
    page.locator("#check-next").click()
    expect(notice).to_contain_text(f"checked characters {first.end + 1:,}–{len(source):,} of {len(source):,}",
                                   timeout=180_000)
    expect(notice).to_contain_text("This is the last part")
    line = source.count("\n", 0, source.index(tail)) + 1  # the source's line, not the part's
    expect(table).to_contain_text(f"line {line}: The company employed [12,345]")
    rows = table_rows(table)
    assert rows["12,345"][2].startswith(f"line {line}: ") and rows["$1,452.4 million"][2] == "not in the part checked"
    expect(page.locator("#check-next")).to_be_hidden()
    assert page.locator("#check-first input").input_value() == str(first.end + 1)
    fill(page, "check-source", "A new source of 3 lines.")  # a new source is checked from its start again
    expect(page.locator("#check-first input")).to_have_value("1")


def test_the_figures_table_shows_every_row_and_headers_stay_whole(page):
    """30 figures: 30 rows, none below a scroll bar (the table showed 8 of 9); no header broken inside a word."""
    from playwright.sync_api import expect

    from nash_metric.space.app import CHECK_SOURCE

    page.get_by_role("tab", name="Check figures").click()
    fill(page, "check-source", CHECK_SOURCE)
    fill(page, "check-text", "Figures: " + ", ".join(str(7 * i) for i in range(1, 31)) + ".")
    page.locator("#check-button").click()
    expect(page.get_by_test_id("check-summary")).to_contain_text("(30 figures)", timeout=120_000)
    table = page.locator("#check-table")
    expect(table.locator("[role=row]")).to_have_count(31)  # the header and every figure
    viewport = table.locator(".virtual-table-viewport")
    assert viewport.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "rows hidden below a scroll bar"
    assert headers_whole(page, "#check-table") == ["figure", "verdict", "its value in the source",
                                                   "what decided, and the number bound to it"]


def test_the_batch_table_fits_1280_px_with_its_support_columns_and_key(page, tmp_path, data_paths):
    from playwright.sync_api import expect

    from nash_metric.space.handlers import BATCH_LABELS
    from nash_metric.verdicts.spec import VERDICT_COLOURS

    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "a,b\nRevenue increased by 4%.,Revenue increased by 40%.\n"
        '"The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",'
        '"The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond."\n'
        "Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.,Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.\n",
        encoding="utf-8")
    page.get_by_role("tab", name="Batch").click()
    page.locator("#batch-upload input[type=file]").set_input_files(str(pairs))
    # gradio sets a file's name and extension apart: "pairs .csv" in the text, "pairs.csv" in its cell's name
    expect(page.locator("#batch-upload")).to_contain_text(re.compile(r"pairs\s*\.csv"))
    page.locator("#batch-button").click()
    expect(page.locator("#batch-summary")).to_contain_text("mean NASH", timeout=120_000)
    table = page.locator("#batch-table")
    expect(table.locator("[role=row]")).to_have_count(4)
    # "baseline" says what it is: the default model's sentence backbone, the embedding cosine.
    assert headers_whole(page, "#batch-table") == BATCH_LABELS
    assert BATCH_LABELS[2:4] == ["bertscore f1", "embedding cosine"]
    assert "numeric support" in BATCH_LABELS and "unsupported figures" in BATCH_LABELS
    viewport = table.locator(".virtual-table-viewport")  # the box that scrolls sideways when a table is too wide
    assert viewport.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the Batch table is wider than the page"
    assert table.locator("th").last.evaluate("e => e.getBoundingClientRect().right") <= WIDTH
    # The key to the marks of "unsupported figures", by the verdicts' names, in their colours.
    key = page.get_by_test_id("batch-key")
    expect(key).to_be_visible()
    for verdict, mark in (("misplaced", "↷"), ("unsupported", "✗"), ("contradicted", "⇅")):
        item = key.locator(f'[data-verdict="{verdict}"]')
        expect(item).to_have_text(f"{mark} {verdict}")
        expect(item).to_have_css("color", rgb(VERDICT_COLOURS[verdict]))
    expect(key).to_contain_text("✓ supported and Σ computed figures count as supported and are not listed")
    by_a = table_rows(table)
    support, lacking = BATCH_LABELS.index("numeric support"), BATCH_LABELS.index("unsupported figures")
    dividend = by_a["The company raised its dividend to $0.15 per share and cut net debt below $25 billion."]
    assert (dividend[support], dividend[lacking]) == ("0.5", "✗ $0.15")
    assert by_a["Revenue increased by 4%."][lacking] == "✗ 4%"
    same = by_a["Operating profit rose to EUR 13.1 mn from EUR 8.7 mn."]
    assert (same[support], same[lacking]) == ("1", "")
    docs_shot(page, data_paths, "batch")


def test_one_colour_key_in_compare_check_and_the_key(page):
    """A verdict's colour is the same in Compare's outlines and key, and Check figures' highlights and legend; a
    number kind's fill is none of them (an unsupported dollar figure was filled green, "supported" in Check)."""
    from playwright.sync_api import expect

    from nash_metric.space.render import KIND_COLOURS
    from nash_metric.verdicts.spec import VERDICT_COLOURS

    page.get_by_role("tab", name="Compare").click()
    fill(page, "compare-a", "The company raised its dividend to $0.15 per share and cut net debt below $25 billion.")
    fill(page, "compare-b",
         "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond.")
    page.locator("#compare-button").click()
    expect(page.get_by_test_id("text-A")).to_contain_text("$25 billion", timeout=60_000)
    dollar = page.locator('[data-testid="text-A"] mark[data-verdict="unsupported"]')
    assert dollar.evaluate("e => getComputedStyle(e).outlineColor") == rgb(VERDICT_COLOURS["unsupported"])
    fills = {rgb(c) for c in VERDICT_COLOURS.values()}
    for mark in page.locator('[data-testid="text-A"] mark, [data-testid="text-B"] mark').all():
        assert mark.evaluate("e => getComputedStyle(e).backgroundColor") not in fills
    assert dollar.evaluate("e => getComputedStyle(e).backgroundColor") == rgb(KIND_COLOURS["monetary"])
    key = page.locator("#compare-texts").get_by_test_id("colour-key")
    for verdict in ("supported", "misplaced", "unsupported", "contradicted", "computed"):
        item = key.locator(f'[data-verdict="{verdict}"]')
        assert item.evaluate("e => getComputedStyle(e).color") == rgb(VERDICT_COLOURS[verdict])
        assert item.locator(".nash-swatch").evaluate("e => getComputedStyle(e).backgroundColor") == \
            rgb(VERDICT_COLOURS[verdict])
    for kind in ("percentage", "monetary", "quantity", "temporal"):
        assert key.locator(f'[data-kind="{kind}"]').evaluate("e => getComputedStyle(e).backgroundColor") == \
            rgb(KIND_COLOURS[kind])
    caption = page.locator('[data-side="A"] .nash-caption')
    assert caption.inner_text() == "MASKED (WHAT α COUNTS):"  # set in capitals, α kept (it read "A")
    assert "verdict (A's figure)" in headers_whole(page, "#compare-table")

    page.get_by_role("tab", name="Check figures").click()
    legend = page.locator('#check-marked [data-testid="colour-key"] [data-verdict]')
    expect(legend).to_have_count(5)
    for item in legend.all():
        verdict = item.get_attribute("data-verdict")
        expect(item).to_have_css("color", rgb(VERDICT_COLOURS[verdict]))
        expect(item.locator(".nash-swatch")).to_have_css("background-color", rgb(VERDICT_COLOURS[verdict]))


def shot_of(page, text: str) -> bytes:
    """A screenshot of `text` drawn the way the Space draws its text panels (same class, same fonts)."""
    page.evaluate("""(text) => {
        let probe = document.getElementById('nash-font-probe');
        if (!probe) {
            probe = document.createElement('div');
            probe.id = 'nash-font-probe';
            probe.className = 'nash-text';
            probe.style.cssText = 'position:fixed;top:0;left:0;padding:6px;background:#fff;color:#000;z-index:9999';
            document.body.appendChild(probe);
        }
        probe.textContent = text;
    }""", text)
    return page.locator("#nash-font-probe").screenshot()


def test_chinese_is_drawn_with_real_glyphs(page, data_paths):
    """Missing glyphs are drawn as identical boxes, so two different strings of equal length look the same; with a
    CJK font they differ. Code points no font has (private use) are the control that the check can fail."""
    from playwright.sync_api import expect

    assert shot_of(page, "\ue000\ue001\ue002\ue003") == shot_of(page, "\ue010\ue011\ue012\ue013")
    assert shot_of(page, "净利润增长") != shot_of(page, "营业收入增"), "no CJK font: run scripts/install_browser.sh"
    page.evaluate("document.getElementById('nash-font-probe').remove()")
    page.get_by_role("tab", name="Compare").click()
    fill(page, "compare-a", "净利润增长12.5%至3億元。")
    fill(page, "compare-b", "净利润增长15%至3.2億元。")
    page.locator("#compare-button").click()
    expect(page.get_by_test_id("text-A")).to_contain_text("至3億元")  # replaces the previous test's result
    data_paths.artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(data_paths.artifacts / "space_compare_zh.png"), full_page=True)
