"""The web board in a real headless Chromium (Debian's chromium + chromium-driver, via Selenium),
against a real service on loopback: load the page, paste a position, enter and roll dice, see the
moves drawn on the board, and play a game against the engine (or its labelled random stand-in).

Set TAVLA_BOARD_SCREENSHOT=path.png to save a picture of the board after the moves are drawn."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
webdriver = pytest.importorskip("selenium.webdriver", reason="the board test needs selenium")

import tavla  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from serving import running  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not os.path.exists(CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (scripts/test installs them)",
)


@pytest.fixture(scope="module")
def base():
    with running(create_app(Settings(default_ply=0, max_ply=1))) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1200,760", "--disable-extensions"]:
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def wait(browser, condition, seconds=10):
    return WebDriverWait(browser, seconds).until(lambda d: condition(d))


def state(browser):
    return browser.execute_script("return JSON.parse(JSON.stringify(window.tavlaBoard.state));")


def board_position(browser):
    return json.loads(browser.find_element(By.ID, "board").get_attribute("data-position"))


def open_board(browser, base):
    browser.get(base + "/")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.checker"))
    assert browser.find_elements(By.CSS_SELECTOR, "#board polygon.point").__len__() == 24


def test_paste_position_enter_dice_see_moves_drawn_and_play(base, browser):
    open_board(browser, base)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board circle.checker")) >= 2 * 4  # the start position
    # A bar checker facing a blot: the moves list must hold the hits and the board must draw them.
    mine = [0] * 25
    mine[24] = 1
    mine[5] = 5
    mine[7] = 3
    mine[12] = 4
    mine[23] = 2
    theirs = [0] * 25
    theirs[2] = 1
    theirs[5] = 5
    theirs[7] = 3
    theirs[12] = 4
    theirs[23] = 2
    pasted = {"variant": "backgammon", "mine": mine, "theirs": theirs, "rules": {}}
    box = browser.find_element(By.ID, "position-text")
    box.clear()
    box.send_keys(json.dumps(pasted))
    browser.find_element(By.ID, "load-json").click()
    wait(browser, lambda d: board_position(d)["bottom"] == mine)
    assert board_position(browser)["top"] == theirs
    # One checker on the bar is drawn on the bar.
    assert browser.find_elements(By.CSS_SELECTOR, "#board circle.checker.mine")
    Select(browser.find_element(By.ID, "d1")).select_by_value("3")
    Select(browser.find_element(By.ID, "d2")).select_by_value("1")
    browser.find_element(By.ID, "show-moves").click()
    expected = [m.notation for m in tavla.Position.from_arrays("backgammon", mine, theirs).legal_moves(3, 1)]
    wait(browser, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#moves li")] == expected)
    hitting = next(k for k, n in enumerate(expected) if "*" in n)
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[hitting].click()
    arrows = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board path.arrow"))
    steps = [a.get_attribute("data-step") for a in arrows]
    assert steps[0].startswith("25/")  # the bar checker enters first
    assert browser.find_elements(By.CSS_SELECTOR, "#board polygon.point.from, #board polygon.point.to")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board g.die")) == 2
    if os.environ.get("TAVLA_BOARD_SCREENSHOT"):
        browser.find_element(By.ID, "board").screenshot(os.environ["TAVLA_BOARD_SCREENSHOT"])
    browser.find_element(By.ID, "play").click()
    move = tavla.Position.from_arrays("backgammon", mine, theirs).legal_moves(3, 1)[hitting]
    after_mine, after_theirs = move.position.to_arrays()
    wait(browser, lambda d: board_position(d) == {"bottom": after_mine, "top": after_theirs, "onRoll": "top"})
    assert after_theirs[24] == 1  # the hit checker sits on the opponent's bar


def test_hint_button_draws_hints_or_says_why_not(base, browser):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "d1")).select_by_value("6")
    Select(browser.find_element(By.ID, "d2")).select_by_value("5")
    browser.find_element(By.ID, "hint").click()
    if hasattr(tavla, "Engine"):
        wait(browser, lambda d: "hints" in d.find_element(By.ID, "moves-kind").text)
        first = browser.find_element(By.CSS_SELECTOR, "#moves li")
        assert "selected" in first.get_attribute("class") and "W " in first.text
        assert browser.find_elements(By.CSS_SELECTOR, "#board path.arrow")
    else:
        wait(browser, lambda d: "Hints need the engine" in d.find_element(By.ID, "status").text)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#moves li")) == len(
            tavla.Position.start("backgammon").legal_moves(6, 5))


@pytest.mark.parametrize("variant", ["backgammon", "nardy", "gulbara"])
def test_play_a_few_moves_against_the_engine(base, browser, variant):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: state(d)["mode"] == "game" and state(d)["variant"] == variant)
    start_mine = tavla.Position.start(variant).to_arrays()[0]
    assert board_position(browser)["bottom"] == start_mine
    # Play until the opponent has replied three times (a gul bara cascade may take several plays).
    for _ in range(12):
        if sum(entry.startswith("top:") for entry in state(browser)["log"]) >= 3:
            break
        if not state(browser)["cascade"]:
            browser.find_element(By.ID, "roll").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves li"))
        s = state(browser)
        assert s["onRoll"] == "bottom" and s["dice"]
        browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
        browser.find_element(By.ID, "play").click()
        # The engine (or the labelled random stand-in) replies and hands the roll back; should it
        # double first, take.
        def replied(d):
            if state(d)["offer"] and d.find_element(By.ID, "take").is_displayed():
                d.find_element(By.ID, "take").click()
                return False
            return state(d)["onRoll"] == "bottom" and not state(d)["busy"]

        wait(browser, replied, 15)
        assert state(browser)["over"] is None
    assert sum(entry.startswith("top:") for entry in state(browser)["log"]) >= 3
    label = browser.find_element(By.ID, "mode-label").text
    if hasattr(tavla, "Engine"):
        assert state(browser)["engineMode"] == "engine" and label.startswith("vs engine")
    else:
        assert state(browser)["engineMode"] == "random" and "RANDOM" in label
    # Every position on the board is a legal one: the service reads it back without complaint.
    pos = board_position(browser)
    tavla.Position.from_arrays(variant, pos["bottom"], pos["top"])
    assert "error" not in browser.find_element(By.ID, "status").get_attribute("class")


def test_gul_bara_cascade_passes_what_cannot_be_played(base, browser):
    """6-6 mid-game with my 18-point blocked: I cannot play a 6, so all four pass to the opponent,
    who plays them, and then rolls its own turn (RULES.md 4)."""
    open_board(browser, base)
    mine = [0] * 25
    mine[23] = 15
    theirs = [0] * 25
    theirs[23] = 14
    theirs[5] = 1  # their 6-point is my 18-point
    box = browser.find_element(By.ID, "position-text")
    box.clear()
    box.send_keys(json.dumps({"variant": "gulbara", "mine": mine, "theirs": theirs}))
    browser.find_element(By.ID, "load-json").click()
    wait(browser, lambda d: state(d)["variant"] == "gulbara" and board_position(d)["bottom"] == mine)
    Select(browser.find_element(By.ID, "d1")).select_by_value("6")
    Select(browser.find_element(By.ID, "d2")).select_by_value("6")
    wait(browser, lambda d: state(d)["cascade"] and "cascade: 4 × 6" in d.find_element(By.ID, "moves-kind").text)
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert [li.text for li in items] == ["no move"]
    items[0].click()
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda d: state(d)["onRoll"] == "top" and "share of the opponent's cascade: 4 × 6"
         in d.find_element(By.ID, "moves-kind").text)
    assert state(browser)["cascade"]["steps"] == [[6, 4]]
    expected = tavla.Position.from_arrays("gulbara", theirs, mine).legal_cascade_step(6, 4, 0)
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == [m.notation for m in expected]
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda d: state(d)["cascade"] is None)
    s = state(browser)
    assert s["onRoll"] == "top" and s["dice"] is None  # the opponent now rolls its own turn
    assert board_position(browser)["top"] == expected[0].position.to_arrays()[0]


def test_paste_an_xgid(base, browser):
    formats = pytest.importorskip("tavla.formats", reason="the formats module is not in this build")
    from tavla.sampling import random_positions

    position = random_positions("backgammon", 5, seed=11)[-1]
    xgid = formats.to_xgid(position, dice=(5, 2))
    open_board(browser, base)
    assert browser.find_element(By.ID, "load-xgid").is_enabled()
    box = browser.find_element(By.ID, "xgid")
    box.send_keys(xgid)
    browser.find_element(By.ID, "load-xgid").click()
    expected = [m.notation for m in position.legal_moves(5, 2)]
    wait(browser, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#moves li")] == expected)
    mine, theirs = position.to_arrays()
    assert board_position(browser) == {"bottom": mine, "top": theirs, "onRoll": "bottom"}
    assert state(browser)["dice"] == [5, 2]
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[-1].click()
    assert wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board path.arrow"))
