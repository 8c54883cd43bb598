"""The Space in real headless Chromium: the paper's case on the page, and user markup staying inert."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(space_url):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (scripts/install_browser.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        tab = browser.new_page(viewport={"width": 1280, "height": 1100})
        tab.set_default_timeout(120_000)
        tab.goto(space_url)
        try:
            yield tab
        finally:
            browser.close()


def fill(page, elem_id: str, text: str) -> None:
    box = page.locator(f"#{elem_id} textarea, #{elem_id} input").first
    box.fill(text)


def test_rank_tab_shows_bertscore_blind_and_nash_right(page):
    page.get_by_role("tab", name="Rank").click()
    fill(page, "rank-anchor", "Revenue increased by 4%.")
    fill(page, "rank-candidates", "Revenue increased by 3.56%.\nRevenue increased by 40%.")
    page.locator("#rank-button").click()
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert page.get_by_test_id("bertscore-top").inner_text() == "Revenue increased by 40%."
    assert page.get_by_test_id("nash-top").inner_text() == "Revenue increased by 3.56%."
    assert "The order changed" in verdict.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space_rank.png"), full_page=True)


def test_markup_in_user_text_is_shown_not_run(page):
    page.get_by_role("tab", name="Compare").click()
    attack = '<img src=x onerror="window.__nash_xss=1"> <script>window.__nash_xss=2</script> rose 4%'
    fill(page, "compare-a", attack)
    fill(page, "compare-b", "Revenue rose 40%")
    page.locator("#compare-button").click()
    text_a = page.get_by_test_id("text-A")
    text_a.wait_for()
    assert "<img src=x" in text_a.inner_text() and "<script>" in text_a.inner_text()
    assert page.evaluate("window.__nash_xss === undefined")
    assert page.locator("#compare-texts img").count() == 0
    page.screenshot(path=str(ARTIFACTS / "space_compare.png"), full_page=True)
