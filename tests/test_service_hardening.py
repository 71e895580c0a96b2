"""The service under work it must not keep: a search past the time limit is cancelled (its worker is
free at once for the next request), idle keep-alive connections are closed after a timeout, and the
bear-off tables are built before the first request."""

from __future__ import annotations

import asyncio
import os
import select
import socket
import subprocess
import sys
import textwrap
import threading
import time

import httpx
import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import running  # noqa: E402
from soak_service import start_server, stop_server  # noqa: E402  (scripts/ is on the path: tests/conftest.py)
from tavla.service import Settings, create_app  # noqa: E402
from tavla.service.engine_pool import EnginePool, TimedOut  # noqa: E402

START = tavla.Position.start()
# A 4-ply hint of the opening takes minutes: far past every time limit here.
DEEP = {"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 4}
CHEAP = {"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 0}


def test_a_cancelled_engine_search_raises_cancelled_at_once():
    engine = tavla.Engine("backgammon", ply=4, evaluator="heuristic", threads=1)
    token = tavla.CancelToken()
    token.cancel()
    assert token.cancelled
    start = time.monotonic()
    with pytest.raises(tavla.Cancelled):
        engine.with_cancel(token).hint(START, 3, 1)
    assert time.monotonic() - start < 0.5
    # A deadline stops a search that has started.
    for call in (lambda e: e.hint(START, 3, 1), lambda e: e.evaluate(START),
                 lambda e: e.cube_decision(START, tavla.CubeState())):
        start = time.monotonic()
        with pytest.raises(tavla.Cancelled):
            call(engine.with_cancel(tavla.CancelToken(seconds=0.2)))
        assert time.monotonic() - start < 2.5
    # The engine itself is not cancelled: the same search without the token runs (here at 0 ply).
    assert tavla.Engine("backgammon", ply=0).with_cancel(tavla.CancelToken()).hint(START, 3, 1)
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="seconds"):
            tavla.CancelToken(seconds=bad)


def test_a_worker_keeps_a_bounded_set_of_engines_whatever_rule_sets_are_asked():
    from tavla.service.engine_pool import ENGINES_PER_WORKER

    pool = EnginePool(Settings(workers=1))
    positions = [tavla.Position.start("gulbara", cascade_after_rolls=k) for k in range(3 * ENGINES_PER_WORKER)]
    made = [pool.engine(p, 1) for p in positions]
    assert len(pool.local.engines) == ENGINES_PER_WORKER
    # The most recently used are kept (the same engine again), the oldest made anew.
    assert pool.engine(positions[-1], 1) is made[-1]
    assert pool.engine(positions[0], 1) is not made[0]
    pool.close()


def test_the_pool_cancels_a_search_past_the_time_limit():
    pool = EnginePool(Settings(workers=1, queue=0, time_limit=0.3))
    engine = tavla.Engine("backgammon", ply=4, threads=1)

    async def scenario():
        token = tavla.CancelToken()
        with pytest.raises(TimedOut):
            await pool.run(lambda: engine.with_cancel(token).hint(START, 3, 1), token)
        assert token.cancelled
        # The worker is free within moments, where the search would hold it for minutes.
        start = time.monotonic()
        while pool.busy:
            assert time.monotonic() - start < 2, "the cancelled search still holds its worker"
            await asyncio.sleep(0.01)
        result, _ = await pool.run(lambda: 42)
        assert result == 42

    asyncio.run(scenario())
    pool.close()


def test_after_a_504_a_cheap_request_is_served_at_once_by_the_same_pool():
    # One worker, no queue: while a search held the worker past its 504, the next request got 503.
    with running(create_app(Settings(workers=1, queue=0, max_ply=4, time_limit=0.5))) as url:
        with httpx.Client(base_url=url, timeout=30) as c:
            for _ in range(2):
                start = time.monotonic()
                r = c.post("/v1/hint", json=DEEP)
                assert r.status_code == 504 and "time limit" in r.json()["error"], r.text
                assert time.monotonic() - start < 2
                # The cancelled search frees the worker within moments.
                deadline = time.monotonic() + 2
                while c.get("/v1/health").json()["busy"]:
                    assert time.monotonic() < deadline, "the worker is still busy after the 504"
                    time.sleep(0.02)
                start = time.monotonic()
                cheap = c.post("/v1/hint", json=CHEAP)
                assert cheap.status_code == 200, cheap.text
                assert time.monotonic() - start < 1.5


def closed_after(s: socket.socket) -> float:
    """Seconds until the server closes the connection ``s`` (reading nothing more from it)."""
    start = time.monotonic()
    assert s.recv(4096) == b""
    return time.monotonic() - start


def test_the_service_closes_idle_connections():
    server = start_server(workers=1, queue=1, max_ply=0, time_limit=2.0, extra=("--keep-alive", "1"))
    try:
        host, port = server.url.split("//")[1].rsplit(":", 1)
        # After an answer: the keep-alive connection is closed after its timeout (1 s), not at once and not never.
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = s.recv(4096)
                assert chunk, answer
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200"), answer
            assert 0.5 < closed_after(s) < 5
        # A connection that never sends a request (uvicorn alone keeps it open for ever).
        with socket.create_connection((host, int(port)), timeout=10) as s:
            assert 0.5 < closed_after(s) < 5
        # Headers that stop coming half-way.
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"GET /v1/health HTTP/1.1\r\nHo")
            assert 0.5 < closed_after(s) < 5
        # A request that is being answered is not cut off: a body sent slowly over 2 s, past the timeout.
        body = b'{"position": {"variant": "backgammon"}, "dice": [3, 1]}'
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"POST /v1/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            for k in range(0, len(body), len(body) // 4 + 1):
                time.sleep(0.5)
                s.sendall(body[k:k + len(body) // 4 + 1])
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        assert stop_server(server) == 0


def trickled_until_closed(address: tuple, head: bytes, tail: bytes, every: float = 0.3, give_up: float = 10) -> float:
    """Seconds from the first byte until the server closes a connection that sends ``head`` at once and
    then ``tail`` a byte every ``every`` seconds (quicker than the keep-alive timeout: never idle)."""
    with socket.create_connection(address, timeout=10) as s:
        start = time.monotonic()
        s.sendall(head)
        for byte in tail:
            if select.select([s], [], [], every)[0]:
                assert s.recv(4096) == b"", "an answer to a request not yet all sent"
                return time.monotonic() - start
            try:
                s.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - start
            if time.monotonic() - start > give_up:
                break
    return float("inf")


def test_a_client_trickling_its_request_is_cut_off_without_holding_up_others():
    server = start_server(workers=1, queue=1, max_ply=0, time_limit=2.0,
                          extra=("--keep-alive", "1", "--request-timeout", "2"), startup_seconds=120)
    try:
        host, port = server.url.split("//")[1].rsplit(":", 1)
        address = (host, int(port))
        head = b"POST /v1/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n"
        cases = {"headers": (b"GET /v1/health HTTP/1.1\r\n", b"X-Padding: " + b"a" * 500),
                 "body": (head + b"\r\n", b"{" + b" " * 499)}
        closed: dict[str, float] = {}
        clients = [threading.Thread(target=lambda k=k, v=v: closed.__setitem__(k, trickled_until_closed(address, *v)))
                   for k, v in cases.items()]
        for c in clients:
            c.start()
        # Meanwhile other clients are answered at once.
        with httpx.Client(base_url=server.url, timeout=10) as c:
            for _ in range(3):
                start = time.monotonic()
                assert c.get("/v1/health").status_code == 200
                assert time.monotonic() - start < 2.0
                time.sleep(0.3)
        for c in clients:
            c.join()
        for k, seconds in closed.items():
            assert 1.5 < seconds < 6, (k, seconds)
        assert not [line for line in server.log if "Traceback" in line], server.log
    finally:
        assert stop_server(server) == 0


def test_keep_alive_is_a_setting():
    from tavla.service.config import settings_from_env

    assert Settings().keep_alive == 5
    assert settings_from_env({"TAVLA_KEEP_ALIVE": "2"}).keep_alive == 2
    with pytest.raises(ValueError, match="keep alive must be 1 to 3600"):
        settings_from_env({"TAVLA_KEEP_ALIVE": "0"})
    assert Settings().request_timeout == 30 and settings_from_env({"TAVLA_REQUEST_TIMEOUT": "2.5"}).request_timeout == 2.5
    with pytest.raises(ValueError, match="request timeout must be 1 to 3600"):
        settings_from_env({"TAVLA_REQUEST_TIMEOUT": "0.5"})


def test_the_bear_off_tables_are_built_at_start_up():
    # In a fresh process (the tables are built once a process): once the service has started, asking for
    # the tables builds nothing, where the first ask would otherwise take a second or more.
    probe = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        from serving import running
        from tavla._core import _bearoff_info
        from tavla.service import Settings, create_app

        with running(create_app(Settings(workers=1))):
            print(max(_bearoff_info(v, [0] * 6)[0] for v in ("backgammon", "gulbara")))
    """)
    out = subprocess.run([sys.executable, "-c", probe, os.path.dirname(__file__)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout.strip()) < 0.05, out.stdout
