"""Huge counts, trials, plies, threads and bodies are refused before any work starts, with a ValueError
(a 413 or 422 from the service) that names the bound: never hours of work, a panic, or an allocation
that kills the process.

The bounds live in the Rust core (src/limits.rs, ``tavla.LIMITS``). The calls that once ran on for ever,
aborted the process or panicked are probed each in its own subprocess (a probe that hangs is stopped
after PROBE_SECONDS, one that aborts takes only itself down), so a bound that goes missing fails here
without taking the test run with it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

import tavla
import tavla._core as core
import tavla_train._coach as coach
from tavla.cli import main

START = tavla.Position.start()


# ----- bounded now -----

@pytest.mark.parametrize("call,fragment", [
    (lambda: tavla.Engine(ply=50), "ply must be 0 to 4"),
    (lambda: tavla.Engine("backgammon", 10**30), "ply"),
    (lambda: core.rollout(START, trials=10**12), "trials must be 1 to 10,000,000"),
    (lambda: coach.nn_rollout_labels(coach.td_new_network("backgammon", 4, 0), "backgammon", b"", 10**12, 0),
     "trials must be 1 to 1,000,000"),
    (lambda: coach.nn_label(coach.td_new_network("backgammon", 4, 0), "backgammon", b"", 50), "at most 3 plies"),
    (lambda: tavla.perft("backgammon", 50), "at most 3 turns"),
    (lambda: tavla.perft("backgammon", 4), "backgammon perft goes at most 3 turns"),
    (lambda: tavla.perft("nardy", 5), "nardy perft goes at most 4 turns"),
    (lambda: tavla.simulate_games("backgammon", 10, threads=10**6), "threads must be 0 to 1024"),
    (lambda: tavla.legal_positions_many("backgammon", [START.to_arrays()], [[3, 1]], threads=10**6),
     "threads must be a whole number from 0"),
    (lambda: tavla.duel("backgammon", "random", "random", 10**15), "games must be 1 to 100000000"),
    (lambda: tavla.duel("backgammon", "random", "random", 10, threads=10**6), "threads must be 0 to 1024"),
    (lambda: tavla.Engine(threads=10**6), "engine option threads must be 0 to 1024"),
    (lambda: tavla.Engine(met="/dev/zero"), "larger than 1,048,576 bytes"),
    (lambda: coach.nn_label(coach.td_new_network("backgammon", 4, 0), "backgammon", b"", 1, threads=5000),
     "threads must be 0 to 1024"),
    (lambda: tavla.sampling.random_positions("backgammon", 10**12), "count must be 0 to 10,000,000"),
    (lambda: tavla.Game(match_length=2**40), "match_length"),
    (lambda: tavla.Match("backgammon", 2**40), "length"),
    (lambda: tavla.CubeState(value=2**40), "value"),
    (lambda: tavla.Game.from_position(tavla.formats.to_xgid(START), rolls=2**40), "rolls"),
], ids=["engine ply", "engine ply huge", "rollout trials", "rollout labels trials", "label ply", "perft depth",
        "perft backgammon 4", "perft nardy 5",
        "simulate threads", "legal_positions_many threads", "duel games", "duel threads", "engine threads",
        "engine met /dev/zero", "label threads", "random positions", "game match length",
        "match length", "cube value", "from_position rolls"])
def test_refused_before_work_starts(call, fragment):
    start = time.monotonic()
    with pytest.raises(ValueError, match=fragment):
        call()
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("argv,fragment", [
    (["bench", "--plies", "300"], "--plies takes plies 0 to 4"),
    (["bench", "--plies", "0", "--threads", "-1"], "--threads must be 0"),
    (["bench", "--plies", "0", "--threads", str(10**6)], "--threads must be 0"),
    (["bearoff", "--home", "0,0,0,0,0,99999999999999999999"], "--home counts are 0 to 15"),
    (["hint", "start", "--dice", "3", "1", "--ply", "50"], "ply must be 0 to 4"),
    (["duel", "random", "random", "--games", str(10**15)], "games must be 1 to"),
])
def test_the_command_line_refuses_huge_numbers_with_a_message(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_the_service_refuses_a_huge_body_from_its_headers():
    pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
    from serving import running
    from tavla.service import Settings, create_app

    with running(create_app(Settings(max_body=16 * 1024))) as url:
        host, port = url.split("//")[1].split(":")
        start = time.monotonic()
        with socket.create_connection((host, int(port)), timeout=10) as s:
            # A gigabyte announced, nothing sent: the answer comes from the headers alone, at once.
            s.sendall(b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000000000\r\n\r\n")
            answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer
        assert time.monotonic() - start < 2
        import httpx

        with httpx.Client(base_url=url, timeout=10) as c:
            for body, fragment in [({"position": {}, "dice": [3, 1], "top": 10**9}, "top"),
                                   ({"position": {}, "dice": [3, 1], "ply": 50}, "ply"),
                                   ({"position": {}, "dice": [3, 1], "ply": 10**30}, "ply")]:
                r = c.post("/v1/hint", json=body)
                assert r.status_code == 422 and fragment in r.json()["error"], r.text


def test_the_limits_are_shared():
    # One table, in the core: the package, the duel and the service read theirs from it.
    from tavla.duel import MAX_GAMES
    from tavla.service.config import ENGINE_MAX_PLY

    assert tavla.LIMITS is core.LIMITS
    assert tavla.MAX_THREADS == tavla.LIMITS["threads"] == 1024
    assert MAX_GAMES == tavla.LIMITS["games"]
    assert ENGINE_MAX_PLY == tavla.LIMITS["ply"] == 4
    assert all(isinstance(v, (int, float)) and v > 0 for v in tavla.LIMITS.values())


def test_a_huge_met_file_is_refused_from_its_size(tmp_path):
    big = tmp_path / "big.xml"
    with open(big, "wb") as f:
        f.truncate(tavla.LIMITS["met_bytes"] + 1)  # sparse: nothing written, nothing read
    start = time.monotonic()
    with pytest.raises(ValueError, match="larger than"):
        tavla.Engine(met=str(big))
    assert time.monotonic() - start < 2


# ----- the core's bounds, each probed in its own process -----

# Generous: a refusal is instant, but a niced process on a loaded two-core machine may wait seconds for
# the CPU (one probe ran past 3 s so); a regression that runs on is still caught, 20 s later.
PROBE_SECONDS = 20
PRELUDE = """
import faulthandler, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # an allocation beyond this fails here, not the box
import tavla, tavla._core as core, tavla_train._coach as coach
P = tavla.Position.start()
NET = coach.td_new_network("backgammon", 4, 0)
BOARDS = bytes(50)  # one empty board
TARGETS = bytes(20)
# The call's own time, the import's left out (a busy machine makes a dozen imports slow): past it, a
# watchdog thread ends the process, even while the call runs in Rust without the GIL.
faulthandler.dump_traceback_later(PROBE_SECONDS, exit=True)
try:
    {call}
except ValueError as e:
    print("REFUSED", e)
    sys.exit(0)
print("RETURNED")
""".replace("PROBE_SECONDS", str(PROBE_SECONDS))

BOUNDED = {
    # name: (call, what it did before the bound, what the refusal says)
    "simulate_games games": ("tavla.simulate_games('backgammon', 10**15)", "played on for ever",
                             "games must be 0 to 100,000,000"),
    "selfplay_positions count": ("core.selfplay_positions('backgammon', 10**12)",
                                 "aborted the process: allocation of 80 TB", "count must be 0 to 10,000,000"),
    "nn_selfplay_flat count": ("coach.nn_selfplay_flat(NET, 'backgammon', 10**12, 0)", "aborted the process",
                               "count must be 0 to 10,000,000"),
    "nn_selfplay_flat count overflow": ("coach.nn_selfplay_flat(NET, 'backgammon', 2**62, 0)",
                                        "PanicException: capacity overflow", "count must be 0 to 10,000,000"),
    "_duel pairs": ("core._duel('backgammon', 'random', 'random', 0, 10**12)", "aborted the process: 32 TB",
                    "pairs must be 0 to 50,000,000"),
    "td_train games": ("coach.td_train(NET, 'backgammon', 10**12, 0, 0.1)", "trained on for ever",
                       "games must be 0 to 100,000,000"),
    "td_score_vs_random games": ("coach.td_score_vs_random(NET, 'backgammon', 10**12, 0)", "played on for ever",
                                 "games must be 1 to 100,000,000"),
    "nn_train_supervised epochs": ("coach.nn_train_supervised(NET, 'backgammon', BOARDS, TARGETS, 10**12, 0.1, 0.1, 0)",
                                   "aborted the process: a Vec of 10**12 losses", "epochs must be 0 to 100,000"),
    "_eval_rate seconds": ("core._eval_rate('backgammon', 'heuristic', 1e12)", "ran on (60 s at least)",
                           "seconds must be 0 to 60"),
    "rollout threads": ("core.rollout(P, trials=100000, threads=100000)",
                        "par_map started a thread per job asked, until the system refused one: "
                        "PanicException: failed to spawn thread", "threads must be 0 to 1024"),
    "perft depth": ("tavla.perft('backgammon', 5)", "billions of positions", "at most 3 turns"),
    "engine met": ("tavla.Engine(met='/dev/zero')", "read /dev/zero until memory ran out",
                   "larger than 1,048,576 bytes"),
}


@pytest.fixture(scope="module")
def probes() -> dict:
    """Every probe at once, each in its own niced subprocess: name -> (what happened, its output)."""
    env = dict(os.environ, RUST_BACKTRACE="0")
    started = {}
    for name, (call, _, _) in BOUNDED.items():
        started[name] = subprocess.Popen([sys.executable, "-c", PRELUDE.replace("{call}", call)], env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                         preexec_fn=lambda: os.nice(19))
    deadline = time.monotonic() + PROBE_SECONDS + 120  # + the imports, slow on a busy machine
    results = {}
    for name, proc in started.items():
        try:
            out = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))[0]
            if proc.returncode == 0 and "REFUSED" in out:
                results[name] = ("refused", out)
            elif "Timeout (" in out:
                results[name] = (f"still running after {PROBE_SECONDS} s", out)
            elif proc.returncode < 0:
                results[name] = (f"killed by signal {-proc.returncode}", out)
            else:
                results[name] = (f"exit status {proc.returncode}", out)
        except subprocess.TimeoutExpired:
            proc.kill()
            results[name] = ("still running", proc.communicate()[0])
    return results


@pytest.mark.parametrize("name", list(BOUNDED))
def test_the_core_refuses_huge_counts(probes, name):
    call, before, refusal = BOUNDED[name]
    result, out = probes[name]
    assert result == "refused", f"{call} (before its bound it {before}): {result}\n{out[-500:]}"
    assert refusal in out, out
