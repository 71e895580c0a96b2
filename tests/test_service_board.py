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


def wait(browser, condition, seconds=30):
    # 30 s: an engine move of a gul bara cascade on a loaded two-core machine ran past 10 s; a board
    # that never gets there still fails, only later.
    return WebDriverWait(browser, seconds).until(lambda d: condition(d))


def state(browser):
    return browser.execute_script("return JSON.parse(JSON.stringify(window.tavlaBoard.state));")


def board_position(browser):
    return json.loads(browser.find_element(By.ID, "board").get_attribute("data-position"))


def open_board(browser, base):
    browser.get(base + "/")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.checker"))
    assert browser.find_elements(By.CSS_SELECTOR, "#board polygon.point").__len__() == 24


def record_requests(browser):
    """From now on the page notes each request it sends: [path, parsed JSON body or None]."""
    browser.execute_script("""
        window.__requests = [];
        const send = window.fetch.bind(window);
        window.fetch = (path, init) => {
          window.__requests.push([path, init && init.body ? JSON.parse(init.body) : null]);
          return send(path, init);
        };""")


def requests_sent(browser):
    return browser.execute_script("return window.__requests;")


# The game's flow: /v1/turn in analysis, /v1/match-turn in a game vs the engine (a match or money session).
TURN_ROUTES = ("/v1/turn", "/v1/match-turn")


def assert_the_turns_went_to_the_service(browser):
    """The game's flow went through /v1/turn or /v1/match-turn alone: no cascade steps or legal moves asked
    for on the side."""
    paths = [path for path, _ in requests_sent(browser)]
    assert set(TURN_ROUTES) & set(paths)
    assert not {"/v1/cascade-step", "/v1/moves", "/v1/position"} & set(paths), paths


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
    wait(browser, lambda d: board_position(d) == {"bottom": after_mine, "top": after_theirs, "onRoll": "top",
                                                  "reserve": {"bottom": 0, "top": 0}})
    assert after_theirs[24] == 1  # the hit checker sits on the opponent's bar


def test_an_acey_deucey_one_two_is_played_and_rolls_again(base, browser):
    """Acey-deucey from the start: every checker in reserve (drawn in the tray), a 1-2 listed with its
    named numbers, and after one played in full the same side rolls again."""
    open_board(browser, base)
    Select(browser.find_element(By.ID, "variant")).select_by_value("acey_deucey")
    wait(browser, lambda d: state(d)["variant"] == "acey_deucey" and state(d)["phase"] == "roll")
    assert board_position(browser)["reserve"] == {"bottom": 15, "top": 15}
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board text.reserve")) == 2
    browser.execute_script("window.tavlaBoard.state.riggedDice = [[1, 2]];")
    browser.find_element(By.ID, "roll").click()
    expected = [m.notation for m in tavla.Position.start("acey_deucey").legal_moves(1, 2)]
    wait(browser, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#moves li")] == expected)
    named_six = next(k for k, n in enumerate(expected) if "named 6:" in n)
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[named_six].click()
    arrows = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board path.arrow"))
    assert arrows[0].get_attribute("data-step").startswith("26/")  # from the reserve
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda d: "again" in d.find_element(By.ID, "status").text)
    s = state(browser)
    assert s["onRoll"] == "bottom" and s["extraRoll"] and s["phase"] == "roll"
    assert board_position(browser)["reserve"]["bottom"] < 15


def test_hint_button_draws_hints(base, browser):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "d1")).select_by_value("6")
    Select(browser.find_element(By.ID, "d2")).select_by_value("5")
    browser.find_element(By.ID, "hint").click()
    wait(browser, lambda d: "hints" in d.find_element(By.ID, "moves-kind").text)
    first = browser.find_element(By.CSS_SELECTOR, "#moves li")
    assert "selected" in first.get_attribute("class") and "W " in first.text
    assert browser.find_elements(By.CSS_SELECTOR, "#board path.arrow")


@pytest.mark.parametrize("variant", ["backgammon", "nardy", "gulbara", "dutch", "acey_deucey"])
def test_play_a_few_moves_against_the_engine(base, browser, variant):
    open_board(browser, base)
    Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda d: state(d)["mode"] == "game" and state(d)["variant"] == variant)
    start = tavla.Position.start(variant)
    assert board_position(browser)["bottom"] == start.to_arrays()[0]
    assert board_position(browser)["reserve"] == {"bottom": start.reserve[0], "top": start.reserve[1]}
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
        # The engine replies and hands the roll back; should it double first, take.
        def replied(d):
            if state(d)["offer"] and d.find_element(By.ID, "take").is_displayed():
                d.find_element(By.ID, "take").click()
                return False
            return state(d)["onRoll"] == "bottom" and not state(d)["busy"]

        wait(browser, replied, 15)
        assert state(browser)["over"] is None
    assert sum(entry.startswith("top:") for entry in state(browser)["log"]) >= 3
    label = browser.find_element(By.ID, "mode-label").text
    assert state(browser)["engineMode"] == "engine" and label.startswith("vs engine")
    # Every position on the board is a legal one: the service reads it back without complaint.
    pos = board_position(browser)
    reserve = (pos["reserve"]["bottom"], pos["reserve"]["top"])
    tavla.Position.from_arrays(variant, pos["bottom"], pos["top"], reserve=reserve if variant in tavla.RESERVE_VARIANTS else None)
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
    # The project's JSON form (the first side on roll); the test above pastes the deprecated mine/theirs.
    box.send_keys(json.dumps({"variant": "gulbara", "checkers": [mine[:24], theirs[:24]], "bar": [mine[24], theirs[24]]}))
    record_requests(browser)
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
    assert state(browser)["cascade"] == {"step": [6, 4], "left": [[6, 4]], "handover": True}
    expected = tavla.Position.from_arrays("gulbara", theirs, mine).legal_cascade_step(6, 4, 0)
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == [m.notation for m in expected]
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda d: state(d)["cascade"] is None)
    s = state(browser)
    assert s["onRoll"] == "top" and s["dice"] is None and s["phase"] == "roll"  # the opponent now rolls its own turn
    assert board_position(browser)["top"] == expected[0].position.to_arrays()[0]
    # Every step went to /v1/turn as a play of the game the service answered last.
    assert_the_turns_went_to_the_service(browser)
    actions = [body["action"] for path, body in requests_sent(browser) if path == "/v1/turn" and "action" in body]
    assert actions[-2:] == [{"play": 0}, {"play": 0}]
    assert {"roll": [6, 6]} in actions


# A gul bara position whose best 4-4 cascade (0-ply) plays 4 of 4 and 2 of 5, and passes 5x2 6x4 on
# (tests/test_service_cascade.py).
STUCK_MINE = [0, 0, 3, 0, 3, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0]
STUCK_THEIRS = [0, 1, 1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0]


def set_up_game(browser, base, dice, **game):
    open_board(browser, base)
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith("Start position"))
    record_requests(browser)
    browser.execute_script("window.tavlaBoard.rigDice(arguments[0]); window.tavlaBoard.setupGame(arguments[1]);",
                           dice, game)


def engine_done(d):
    """The engine has played and handed the turn back (should it double first, take)."""
    if state(d)["offer"] and d.find_element(By.ID, "take").is_displayed():
        d.find_element(By.ID, "take").click()
        return False
    return state(d)["onRoll"] == "bottom" and not state(d)["busy"]


def test_the_engines_cascade_passes_its_unplayed_moves_to_you(base, browser):
    """The engine rolls 4-4 in the stuck position: /v1/engine-move chooses its whole part, the board plays
    it through /v1/turn as a list of steps, and the service hands you the rest (RULES.md 4)."""
    set_up_game(browser, base, [[4, 4]], variant="gulbara", bottom=STUCK_THEIRS, top=STUCK_MINE, onRoll="top")
    wait(browser, engine_done, 20)
    s = state(browser)
    assert s["cascade"] == {"step": [5, 2], "left": [[5, 2], [6, 4]], "handover": True}
    assert s["phase"] == "move" and s["dice"] == [5, 5]
    assert "share of the opponent's cascade: 2 × 5, then 4 × 6" in browser.find_element(By.ID, "moves-kind").text
    part = tavla.Engine("gulbara", ply=0).best_move(tavla.Position.from_arrays("gulbara", STUCK_MINE, STUCK_THEIRS), 4, 4)
    assert board_position(browser)["top"] == part.position.to_arrays()[0]
    assert any(e.startswith("top: 4-4: ") and "passes 5x2 6x4" in e for e in s["log"])
    turns = [body for path, body in requests_sent(browser) if path == "/v1/match-turn"]
    assert {"plays": [step.notation for _, step in part.cascade_steps]} in [t.get("action") for t in turns]
    engine_move = next(body for path, body in requests_sent(browser) if path == "/v1/engine-move")
    assert engine_move["dice"] == [4, 4] and engine_move["rolls"] == 1000  # the service's rolls_before
    # You play your share step by step, then roll your own turn.
    expected = [m.notation for m in part.position.flip().legal_cascade_step(5, 2, 0)]
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == expected
    for _ in range(2):
        browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
        browser.find_element(By.ID, "play").click()
        wait(browser, lambda d: not state(d)["busy"] and (state(d)["cascade"] or {}).get("step") != [5, 2])
    s = state(browser)
    assert s["cascade"] is None and s["onRoll"] == "bottom" and s["phase"] == "roll" and s["dice"] is None
    assert_the_turns_went_to_the_service(browser)


def test_your_cascade_passes_to_the_engine_which_plays_its_share(base, browser):
    """You roll 6-6 with your 18-point blocked: all four sixes pass to the engine, whose share
    /v1/handover chooses and /v1/turn plays; then the engine rolls its own turn and hands back."""
    mine = [0] * 25
    mine[23] = 15
    theirs = [0] * 25
    theirs[23] = 14
    theirs[5] = 1
    set_up_game(browser, base, [[6, 6], [3, 1]], variant="gulbara", bottom=mine, top=theirs, onRoll="bottom")
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith("Game set up"))
    browser.find_element(By.ID, "roll").click()
    wait(browser, lambda d: state(d)["cascade"] and [li.text for li in d.find_elements(By.CSS_SELECTOR, "#moves li")]
         == ["no move"])
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
    browser.find_element(By.ID, "play").click()
    wait(browser, engine_done, 20)
    s = state(browser)
    # The engine's share of your cascade, then its own turn.
    plays = [e for e in s["log"] if e.startswith("top: ") and "doubles" not in e]
    assert plays[0] == "top: 6-6: 24/18(4)" and plays[1].startswith("top: 3-1 ") and len(plays) == 2, s["log"]
    assert s["cascade"] is None or not s["cascade"]["handover"]
    handover = next(body for path, body in requests_sent(browser) if path == "/v1/handover")
    assert handover["handover"] == [[6, 4]]
    assert_the_turns_went_to_the_service(browser)
    pos = board_position(browser)
    tavla.Position.from_arrays("gulbara", pos["bottom"], pos["top"])


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
    assert board_position(browser) == {"bottom": mine, "top": theirs, "onRoll": "bottom", "reserve": {"bottom": 0, "top": 0}}
    assert state(browser)["dice"] == [5, 2]
    browser.find_elements(By.CSS_SELECTOR, "#moves li")[-1].click()
    assert wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board path.arrow"))
