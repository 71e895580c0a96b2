"""The board's match review in headless Chromium: a .mat file chosen, analysed by the service as a
job (/v1/analyses), and stepped through decision by decision, each drawn with its played and best
move."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("selenium.webdriver", reason="the board test needs selenium")

import tavla  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from serving import running  # noqa: E402
from tavla import analysis, formats  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402
from test_service_board import board_position, browser, open_board, pytestmark, state, wait  # noqa: E402,F401

MAT = Path(__file__).parent / "data" / "gnubg_3pt.mat"


@pytest.fixture(scope="module")
def base():
    with running(create_app(Settings(default_ply=0, max_ply=1))) as url:
        yield url


def test_a_match_file_is_analysed_and_stepped_through(browser, base):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "review-ply")).select_by_value("0")
    browser.find_element(By.ID, "match-file").send_keys(str(MAT.resolve()))
    browser.find_element(By.ID, "analyse-match").click()
    wait(browser, lambda d: "PR" in d.find_element(By.ID, "review-summary").text, seconds=120)
    summary = browser.find_element(By.ID, "review-summary").text
    assert summary.startswith("gnubg_3pt.mat: 3-point match, 0-5.") and "gnubg: PR" in summary and "root: PR" in summary
    expected = analysis.analyze_match(tavla.Engine("backgammon", ply=0), formats.read_mat(MAT.read_text()))
    marked = [d for d in expected["decisions"] if d["mark"]]
    wait(browser, lambda d: d.find_element(By.ID, "review-at").text == f"1 / {len(marked)}")
    # The first marked decision: its position drawn with the player on roll, its played move selected.
    first = marked[0]
    shown = browser.find_element(By.ID, "review-decision").text
    assert shown.startswith(f"Game {first['game']}, ") and first["played"] in shown and first["mark"] in shown
    assert browser.find_element(By.ID, "review-prev").get_attribute("disabled")
    browser.find_element(By.ID, "review-next").click()
    second = marked[1]
    wait(browser, lambda d: d.find_element(By.ID, "review-at").text == f"2 / {len(marked)}")
    wait(browser, lambda d: second["played"] in d.find_element(By.ID, "review-decision").text)
    if second["kind"] == "move":
        position = formats.parse(__import__("json").dumps(second["position"]))["position"]
        mine, theirs = position.to_arrays()
        s = state(browser)
        side = "bottom" if second["player"] == 0 else "top"
        other = "top" if side == "bottom" else "bottom"
        wait(browser, lambda d: board_position(d)[side] == list(mine) and board_position(d)[other] == list(theirs))
        assert s["selected"] >= 0 and s["moves"][s["selected"]]["notation"] == second["played"]
    # Every decision, not only the marked ones.
    browser.find_element(By.ID, "review-errors").click()
    wait(browser, lambda d: d.find_element(By.ID, "review-at").text == f"1 / {len(expected['decisions'])}")
