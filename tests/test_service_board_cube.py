"""The web board's match and cube in a real headless Chromium (as tests/test_service_board.py). A game vs
the engine is a match or money session on /v1/match-turn: the board draws the score, Crawford, the cube and
the pip counts as the answers say, and enables Double / Take / Pass / Beaver exactly when the answer lists
the action; the engine doubles, takes, beavers and passes by /v1/cube, carried out as match actions; a
passed double ends the game with the match's score, and the match ends when the service says so.

Set TAVLA_BOARD_CUBE_SCREENSHOT=path.png to save a picture of the page with the engine's double on offer."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("selenium.webdriver", reason="the board test needs selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from serving import arrays  # noqa: E402
from test_service_board import (  # noqa: E402,F401
    CHROMEDRIVER, CHROMIUM, base, browser, open_board, record_requests, requests_sent, state, wait)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not os.path.exists(CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (scripts/test installs them)",
)


# A bear-off the side with WINNING wins about 95% of the time, with no gammon left: double, pass.
WINNING = arrays({6: 4, 5: 4})
LOSING = arrays({6: 6, 5: 4, 4: 2})
# A closer race: double, take.
CLOSE_AHEAD = arrays({6: 3, 5: 3, 4: 2})
CLOSE_BEHIND = arrays({6: 5, 5: 3})


def setup(browser, base, **game):
    open_board(browser, base)
    wait(browser, lambda d: text(d, "status").startswith("Start position"))  # the page's own start is done
    record_requests(browser)
    browser.execute_script("window.__setup = window.tavlaBoard.setupGame(arguments[0]);", game)


def enabled(browser, element_id):
    e = browser.find_element(By.ID, element_id)
    return e.is_displayed() and e.is_enabled()


def match_actions(browser):
    """The actions the page sent to /v1/match-turn (record_requests must be on)."""
    return [body.get("action") for path, body in requests_sent(browser) if path == "/v1/match-turn"]


def cube(browser):
    """The cube drawn on the board: (where, value, the text on it); read at once (the board redraws often)."""
    owner, value, label = browser.execute_script(
        'const g = document.querySelector("#board g.cube"); return [g.dataset.owner, g.dataset.value, g.textContent];')
    return owner, int(value), label


def shown(browser, element_id):
    return browser.find_element(By.ID, element_id).is_displayed()


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def test_a_new_match_with_its_settings_draws_the_stakes_and_the_advice(base, browser):
    open_board(browser, base)
    assert not shown(browser, "jacoby-setting") or Select(browser.find_element(By.ID, "match-length")).first_selected_option.get_attribute("value") == "0"
    Select(browser.find_element(By.ID, "match-length")).select_by_value("5")
    assert shown(browser, "crawford-setting") and not shown(browser, "jacoby-setting") and not shown(browser, "beaver-setting")
    record_requests(browser)
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: state(d)["mode"] == "game" and (state(d)["match"] or {}).get("match_length") == 5)
    new = next(body["new"] for path, body in requests_sent(browser) if path == "/v1/match-turn")
    assert new == {"position": {"variant": "backgammon"}, "match_length": 5, "max_cube": 64, "crawford": True}
    assert cube(browser) == ("centered", 1, "64")
    wait(browser, lambda d: "You 0 : 0 Engine, match to 5" in text(d, "score"))
    wait(browser, lambda d: text(d, "pips") == "pips: You 167, Engine 167")
    assert text(browser, "cube-state") == "cube 1, centered"
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert text(browser, "cube-advice").startswith("You: no double")
    rows = browser.find_elements(By.CSS_SELECTOR, "#cube-advice tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == ["No double", "Double, take", "Double, pass"]
    assert all(r.find_elements(By.TAG_NAME, "td")[2].text.endswith("%") for r in rows)  # MWC in a match
    assert enabled(browser, "double") and text(browser, "double") == "Double to 2"
    assert shown(browser, "take") and not enabled(browser, "take") and not enabled(browser, "pass")
    assert not shown(browser, "beaver")  # beavers belong to money play
    # Once rolled, the match no longer offers the double.
    browser.find_element(By.ID, "roll").click()
    wait(browser, lambda d: not enabled(d, "double") and not d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert browser.find_element(By.ID, "double").get_attribute("title").startswith("a double is offered before rolling")
    # Money play shows its own settings.
    Select(browser.find_element(By.ID, "match-length")).select_by_value("0")
    assert shown(browser, "jacoby-setting") and shown(browser, "beaver-setting") and not shown(browser, "crawford-setting")


def test_the_double_is_disabled_when_the_engine_owns_the_cube(base, browser):
    setup(browser, base, bottom=CLOSE_AHEAD, top=CLOSE_BEHIND, onRoll="bottom", cube={"value": 2, "owner": "top"})
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert cube(browser) == ("top", 2, "2")
    assert "no double available" in text(browser, "cube-advice")
    assert not enabled(browser, "double")
    assert browser.find_element(By.ID, "double").get_attribute("title") == "the cube is not yours to turn: player 1 owns it at 2"
    assert text(browser, "cube-state") == "cube 2, the engine's"
    assert text(browser, "score").startswith("money game")


def test_crawford_game_has_doubling_disabled(base, browser):
    setup(browser, base, bottom=CLOSE_AHEAD, top=CLOSE_BEHIND, onRoll="bottom",
          match={"length": 5, "score": {"bottom": 2, "top": 4}, "crawford": True})
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cube-advice .action"))
    assert text(browser, "crawford") == "Crawford game"
    assert "You 2 : 4 Engine, match to 5" in text(browser, "score")
    assert not enabled(browser, "double")
    assert browser.find_element(By.ID, "double").get_attribute("title") == "nobody may double in the Crawford game"
    browser.find_element(By.ID, "double").click()  # a disabled button sends nothing
    assert {"double": True} not in match_actions(browser)


@pytest.mark.parametrize("stakes", ["money", "match"])
def test_engine_doubles_and_the_human_passes_with_the_score_from_the_match(base, browser, stakes):
    if stakes == "money":
        game = dict(cube={"value": 1, "owner": None})
        points, score = 1, "money game; You 0 : 1 Engine"
    else:
        game = dict(cube={"value": 2, "owner": "top"}, match={"length": 5, "score": {"bottom": 1, "top": 2}})
        points, score = 2, "You 1 : 4 Engine, match to 5"
    setup(browser, base, bottom=LOSING, top=WINNING, onRoll="top", **game)
    wait(browser, lambda d: enabled(d, "take") and enabled(d, "pass"))
    assert cube(browser)[:2] == ("offered", 2 * game["cube"]["value"])
    assert "The engine doubles to" in text(browser, "status")
    assert not enabled(browser, "double")
    if os.environ.get("TAVLA_BOARD_CUBE_SCREENSHOT"):
        browser.save_screenshot(os.environ["TAVLA_BOARD_CUBE_SCREENSHOT"])
    browser.find_element(By.ID, "pass").click()
    wait(browser, lambda d: state(d)["over"] == "top")
    s = state(browser)
    assert s["result"]["points"] == points and s["result"]["winner"] == "top"
    assert s["match"]["score"][1] == (points if stakes == "money" else 2 + points)
    assert f"The engine wins {points} point" in text(browser, "status")
    assert score in text(browser, "score")
    assert not enabled(browser, "take") and not enabled(browser, "double")
    assert match_actions(browser)[-2:] == [{"double": True}, {"drop": True}]
    assert shown(browser, "next-game")
    if stakes == "match":
        assert text(browser, "crawford") == "next game: Crawford"
        browser.find_element(By.ID, "next-game").click()
        wait(browser, lambda d: state(d)["over"] is None and state(d)["match"]["crawford"])
        assert cube(browser) == ("centered", 1, "64") and text(browser, "crawford") == "Crawford game"
        assert {"next_game": True} in match_actions(browser)  # the winner (the engine) starts it


def test_engine_double_taken_draws_the_cube_on_the_takers_side(base, browser):
    setup(browser, base, bottom=LOSING, top=WINNING, onRoll="top")
    wait(browser, lambda d: enabled(d, "take"))
    browser.find_element(By.ID, "take").click()
    # The engine rolls and plays on; the cube is the human's at 2, drawn at the bottom.
    wait(browser, lambda d: (state(d)["onRoll"] == "bottom" or state(d)["over"]) and not state(d)["busy"], 15)
    assert state(browser)["match"]["cube"]["value"] == 2 and state(browser)["match"]["cube"]["owner"] == 0
    assert cube(browser) == ("bottom", 2, "2")
    assert any("bottom: takes" in entry for entry in state(browser)["log"])
    assert any(entry.startswith("top: ") and "/" in entry for entry in state(browser)["log"])  # it moved
    assert {"take": True} in match_actions(browser)


def test_a_beaver_in_money_play(base, browser):
    setup(browser, base, bottom=LOSING, top=WINNING, onRoll="top", cubeRules={"beaver": True})
    wait(browser, lambda d: enabled(d, "beaver"))
    browser.find_element(By.ID, "beaver").click()
    wait(browser, lambda d: (state(d)["onRoll"] == "bottom" or state(d)["over"]) and not state(d)["busy"], 15)
    assert cube(browser)[1:] == (4, "4") and state(browser)["match"]["cube"]["owner"] == 0
    assert {"beaver": True} in match_actions(browser)


@pytest.mark.parametrize("position, takes", [((WINNING, LOSING), False), ((CLOSE_AHEAD, CLOSE_BEHIND), True)])
def test_human_double_answered_by_the_engine(base, browser, position, takes):
    setup(browser, base, bottom=position[0], top=position[1], onRoll="bottom")
    wait(browser, lambda d: enabled(d, "double"))
    browser.find_element(By.ID, "double").click()
    if takes:
        wait(browser, lambda d: (state(d)["match"] or {}).get("cube", {}).get("owner") == 1 and not state(d)["busy"])
        assert cube(browser) == ("top", 2, "2")
        assert "The engine takes" in text(browser, "status")
        assert not enabled(browser, "double")  # the engine owns the cube now
        assert state(browser)["over"] is None
        assert match_actions(browser)[-2:] == [{"double": True}, {"take": True}]
    else:
        wait(browser, lambda d: state(d)["over"] == "bottom")
        assert state(browser)["result"]["points"] == 1
        assert "You win 1 point" in text(browser, "status")
        assert match_actions(browser)[-2:] == [{"double": True}, {"drop": True}]


def test_the_match_ends_when_the_service_says_so(base, browser):
    # 2 : 1 in a match to 3, after the Crawford game: the human doubles a won bear-off, the engine takes
    # (passing would lose the match), and the human bears off with the dice rigged: 6-6, the engine's 2-1, 5-5.
    setup(browser, base, bottom=WINNING, top=LOSING, onRoll="bottom", match={"length": 3, "score": {"bottom": 2, "top": 1}})
    browser.execute_script("window.tavlaBoard.rigDice(arguments[0]);", [[6, 6], [2, 1], [5, 5]])
    wait(browser, lambda d: enabled(d, "double"))
    assert text(browser, "crawford") == "post-Crawford"
    browser.find_element(By.ID, "double").click()
    wait(browser, lambda d: cube(d) == ("top", 2, "2") and not state(d)["busy"])
    for _ in range(2):
        browser.find_element(By.ID, "roll").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves li"))
        browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
        browser.find_element(By.ID, "play").click()
        wait(browser, lambda d: (state(d)["onRoll"] == "bottom" or state(d)["over"]) and not state(d)["busy"], 15)
    wait(browser, lambda d: state(d)["over"] == "bottom")
    s = state(browser)
    assert s["result"]["points"] == 2
    assert s["match"]["match_over"] and s["match"]["winner"] == 0 and s["match"]["score"] == [4, 1]
    assert "You win the match." in text(browser, "status")
    assert "You 4 : 1 Engine, match to 3" in text(browser, "score")
    assert not shown(browser, "next-game") and not enabled(browser, "double")
    assert text(browser, "crawford") == ""
