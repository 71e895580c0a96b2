"""The web board's cube in a real headless Chromium (as tests/test_service_board.py): the cube, the
score, Crawford and the pip counts are drawn; the engine's cube advice appears before the human's roll;
the Double button follows the cube's owner; the engine doubles, takes and passes by /v1/cube, and a
passed double ends the game with the cube's value going to the score.

Set TAVLA_BOARD_CUBE_SCREENSHOT=path.png to save a picture of the page with the engine's double on offer."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("selenium.webdriver", reason="the board test needs selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from test_service_board import CHROMEDRIVER, CHROMIUM, base, browser, open_board, state, wait  # noqa: E402,F401

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not os.path.exists(CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (scripts/test installs them)",
)


def arrays(points):
    """25 counts from {point: checkers}."""
    a = [0] * 25
    for p, n in points.items():
        a[p - 1] = n
    return a


# A bear-off the side with WINNING wins about 95% of the time, with no gammon left: double, pass.
WINNING = arrays({6: 4, 5: 4})
LOSING = arrays({6: 6, 5: 4, 4: 2})
# A closer race: double, take.
CLOSE_AHEAD = arrays({6: 3, 5: 3, 4: 2})
CLOSE_BEHIND = arrays({6: 5, 5: 3})


def setup(browser, base, **game):
    open_board(browser, base)
    wait(browser, lambda d: text(d, "status").startswith("Start position"))  # the page's own start is done
    browser.execute_script("window.__setup = window.tavlaBoard.setupGame(arguments[0]);", game)


def cube(browser):
    g = browser.find_element(By.CSS_SELECTOR, "#board g.cube")
    return g.get_attribute("data-owner"), int(g.get_attribute("data-value")), g.text


def shown(browser, element_id):
    return browser.find_element(By.ID, element_id).is_displayed()


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def test_cube_score_pips_and_advice_on_a_new_match(base, browser):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "match-length")).select_by_value("5")
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: state(d)["mode"] == "game" and state(d)["match"]["length"] == 5)
    assert cube(browser) == ("centered", 1, "64")
    wait(browser, lambda d: "You 0 : 0 Engine, match to 5" in text(d, "score"))
    wait(browser, lambda d: text(d, "pips") == "pips: You 167, Engine 167")
    assert text(browser, "cube-state") == "cube 1, centered"
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert text(browser, "cube-advice").startswith("You: no double")
    rows = browser.find_elements(By.CSS_SELECTOR, "#cube-advice tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == ["No double", "Double, take", "Double, pass"]
    assert all(r.find_elements(By.TAG_NAME, "td")[2].text.endswith("%") for r in rows)  # MWC in a match
    assert shown(browser, "double") and text(browser, "double") == "Double to 2"
    # Once rolled, the cube decision is gone: no advice, no Double.
    browser.find_element(By.ID, "roll").click()
    wait(browser, lambda d: not shown(d, "double") and not d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))


def test_no_double_button_when_the_engine_owns_the_cube(base, browser):
    setup(browser, base, bottom=CLOSE_AHEAD, top=CLOSE_BEHIND, onRoll="bottom", cube={"value": 2, "owner": "top"})
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert cube(browser) == ("top", 2, "2")
    assert "no double available" in text(browser, "cube-advice")
    assert not shown(browser, "double")
    assert text(browser, "cube-state") == "cube 2, the engine's"
    assert text(browser, "score").startswith("money game")


def test_crawford_game_has_no_double(base, browser):
    setup(browser, base, bottom=CLOSE_AHEAD, top=CLOSE_BEHIND, onRoll="bottom",
          match={"length": 5, "score": {"bottom": 2, "top": 4}, "crawford": True})
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert text(browser, "crawford") == "Crawford game"
    assert "You 2 : 4 Engine, match to 5" in text(browser, "score")
    assert not shown(browser, "double")


@pytest.mark.parametrize("stakes", ["money", "match"])
def test_engine_doubles_a_winning_position_and_the_human_passes(base, browser, stakes):
    if stakes == "money":
        game = dict(cube={"value": 1, "owner": None})
        points, score = 1, "money game; You 0 : 1 Engine"
    else:
        game = dict(cube={"value": 2, "owner": "top"}, match={"length": 5, "score": {"bottom": 1, "top": 2}})
        points, score = 2, "You 1 : 4 Engine, match to 5"
    setup(browser, base, bottom=LOSING, top=WINNING, onRoll="top", **game)
    wait(browser, lambda d: shown(d, "take") and shown(d, "pass"))
    assert cube(browser)[:2] == ("offered", 2 * game["cube"]["value"])
    assert "The engine doubles to" in text(browser, "status")
    if os.environ.get("TAVLA_BOARD_CUBE_SCREENSHOT"):
        browser.save_screenshot(os.environ["TAVLA_BOARD_CUBE_SCREENSHOT"])
    browser.find_element(By.ID, "pass").click()
    wait(browser, lambda d: state(d)["over"] == "top")
    s = state(browser)
    assert s["result"]["points"] == points and s["result"]["winner"] == "top"
    assert s["match"]["score"]["top"] == (points if stakes == "money" else 2 + points)
    assert f"The engine wins {points} point" in text(browser, "status")
    assert score in text(browser, "score")
    assert not shown(browser, "take") and not shown(browser, "double")
    if stakes == "match":
        assert text(browser, "crawford") == "next game: Crawford"
        assert shown(browser, "next-game")
        browser.find_element(By.ID, "next-game").click()
        wait(browser, lambda d: state(d)["over"] is None and state(d)["match"]["crawford"])
        assert cube(browser) == ("centered", 1, "64") and text(browser, "crawford") == "Crawford game"


def test_engine_double_taken_gives_the_human_the_cube(base, browser):
    setup(browser, base, bottom=LOSING, top=WINNING, onRoll="top")
    wait(browser, lambda d: shown(d, "take"))
    browser.find_element(By.ID, "take").click()
    # The engine rolls and plays on; the cube is the human's at 2.
    wait(browser, lambda d: (state(d)["onRoll"] == "bottom" or state(d)["over"]) and not state(d)["busy"], 15)
    assert state(browser)["cube"] == {"value": 2, "owner": "bottom"}
    assert any("bottom: takes" in entry for entry in state(browser)["log"])
    assert any(entry.startswith("top: ") and "/" in entry for entry in state(browser)["log"])  # it moved


@pytest.mark.parametrize("position, takes", [((WINNING, LOSING), False), ((CLOSE_AHEAD, CLOSE_BEHIND), True)])
def test_human_double_answered_by_the_engine(base, browser, position, takes):
    setup(browser, base, bottom=position[0], top=position[1], onRoll="bottom")
    wait(browser, lambda d: shown(d, "double"))
    browser.find_element(By.ID, "double").click()
    if takes:
        wait(browser, lambda d: state(d)["cube"] == {"value": 2, "owner": "top"} and not state(d)["busy"])
        assert cube(browser) == ("top", 2, "2")
        assert "The engine takes" in text(browser, "status")
        assert not shown(browser, "double")  # the engine owns the cube now
        assert state(browser)["over"] is None
    else:
        wait(browser, lambda d: state(d)["over"] == "bottom")
        assert state(browser)["result"]["points"] == 1
        assert "You win 1 point" in text(browser, "status")
