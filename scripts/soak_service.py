#!/usr/bin/env python3
"""Soak test of the hint service: the real server (``tavla serve`` in a subprocess, as a user starts
it) under a mix of concurrent clients for a while, then a report. It exits 1 when a check fails.

    python3 scripts/soak_service.py                       # 5 minutes
    python3 scripts/soak_service.py --duration 180 --json soak.json

Clients, one thread each, in a loop until the time is up:

- ``cheap``: GET /v1/health and /v1/version, POST /v1/moves and /v1/position;
- ``hint``: POST /v1/hint at ply 0, 1 and 2 (positions from seeded random play, seeded dice);
- ``turn``: whole games over POST /v1/turn, a roll or a play at a time, the record sent back each time;
- ``cube``: POST /v1/cube at ply 0 and 1, with cube states and XGIDs;
- ``malformed``: bodies that are not JSON, the wrong Content-Type, unknown fields, impossible positions,
  huge numbers, deep JSON;
- ``oversized``: a body over the limit, declared (a Content-Length of 1 GB and nothing sent) or
  streamed without a length (chunked);
- ``slow``: a body (or the headers) sent a few bytes at a time, requests pipelined whose answers are
  never read, a connection that sends nothing, headers trickled past the server's request timeout
  (8 s here), which must be cut near it;
- ``deep``: POST /v1/hint at ply 2 on gul bara doubles, whose cascade searches run past the time limit.

The checks (each a line of the report, ``ok`` or ``FAIL``):

- every answer is 2xx or 4xx: 503 only with the pool's "busy" message, 504 only with the time limit's,
  never a 500 (nor anything in the server's log at ERROR);
- every well-formed request gets an answer, and none of them is refused with a 4xx;
- the server's RSS is flat: it grows less than ``--rss-growth-mb`` from the second quarter of the run
  to the last (the first is the climb to the high-water mark of concurrent deep searches);
- the worker pool recovers: once the load stops, /v1/health reports no engine call busy and a hint is
  answered at once;
- the cheap routes stay quick while the engine is busy: their p99 is under ``--cheap-p99-ms``;
- graceful shutdown: SIGTERM while hints and a slow upload are in flight; every one of them gets its
  answer or a cleanly closed connection, and the server exits 0 within the time limit and a few seconds.

``run_soak`` and ``check_shutdown`` are what tests/test_service_soak.py runs, for a shorter time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import httpx

import tavla
from tavla import formats
from tavla.sampling import random_positions

ENGINE_ROUTES = ("/v1/hint", "/v1/cube", "/v1/evaluate", "/v1/engine-move", "/v1/handover")
CHEAP = ("GET /v1/health", "GET /v1/version", "POST /v1/moves", "POST /v1/position")


# ----- the server -----

@dataclass
class Server:
    proc: subprocess.Popen
    url: str
    time_limit: float
    log: list = field(default_factory=list)  # the server's stdout and stderr lines
    reader: Optional[threading.Thread] = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def errors_logged(self) -> list[str]:
        """The server's error lines, less uvicorn's own line for a stop that cut off a stalled client."""
        return [line for line in self.log if ("Traceback" in line or "ERROR" in line)
                and "timeout graceful shutdown exceeded" not in line]


def start_server(workers: int = 2, queue: int = 8, max_ply: int = 2, time_limit: float = 2.0,
                 extra: tuple = (), startup_seconds: float = 60) -> Server:
    """``tavla serve`` on a free loopback port (port 0: the banner names the port bound), quiet."""
    cmd = [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", "0", "--workers", str(workers),
           "--queue", str(queue), "--max-ply", str(max_ply), "--default-ply", "0", "--time-limit", str(time_limit),
           "--quiet", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    server = Server(proc, "", time_limit)
    found = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            server.log.append(line.rstrip("\n"))
            m = re.search(r"tavla serve: (http://[^/ ]+)/", line)
            if m and not found.is_set():
                server.url = m.group(1)
                found.set()

    server.reader = threading.Thread(target=read, daemon=True)
    server.reader.start()
    if not found.wait(startup_seconds):
        proc.kill()
        raise RuntimeError("the service did not start:\n" + "\n".join(server.log[-20:]))
    return server


def stop_server(server: Server, seconds: float = 30) -> Optional[int]:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(10)
    if server.reader is not None:
        server.reader.join(5)
    return server.proc.returncode


def rss_mb(pid: int) -> Optional[float]:
    """Resident memory of a process in MiB (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return None


# ----- what the clients send -----

class Bodies:
    """Seeded request bodies: positions from random play in every variant, dice, cube states."""

    def __init__(self, seed: int = 24):
        self.rng = random.Random(seed)
        self.positions = {v: [p.to_arrays() for p in random_positions(v, 40, seed=seed)] for v in tavla.VARIANTS}
        start = tavla.Position.start()
        self.xgids = [formats.to_xgid(p, dice=(3, 1)) for p in random_positions("backgammon", 10, seed=seed + 1)]
        self.xgids.append(formats.to_xgid(start, cube_value=2, cube_owner=1, match_length=7, score=(2, 3)))

    def position(self, rng: random.Random, variant: Optional[str] = None) -> dict:
        variant = variant or rng.choice(tavla.VARIANTS)
        mine, theirs = rng.choice(self.positions[variant])
        return {"variant": variant, "mine": list(mine), "theirs": list(theirs)}

    @staticmethod
    def dice(rng: random.Random, doubles: Optional[bool] = None) -> list[int]:
        while True:
            d = [rng.randint(1, 6), rng.randint(1, 6)]
            if doubles is None or (d[0] == d[1]) == doubles:
                return d


@dataclass
class Record:
    client: str
    route: str  # "POST /v1/hint ply2", "malformed", ...
    status: Any  # an int, or "closed" / "error:<name>" where no answer came
    seconds: float
    problem: Optional[str] = None  # set when the answer breaks a check
    at: float = 0.0


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.records: list[Record] = []
        self.start = time.monotonic()

    def add(self, record: Record) -> None:
        record.at = time.monotonic() - self.start
        with self.lock:
            self.records.append(record)


def engine_refusal_problem(route: str, status: int, body: Any) -> Optional[str]:
    """Why a 503 or 504 is wrong here, or None when the pool or the time limit said so."""
    text = body.get("error", "") if isinstance(body, dict) else ""
    path = route.split()[1] if " " in route else route
    if path not in ENGINE_ROUTES:
        return f"{status} on {path}, which runs no engine: {text[:80]}"
    if status == 503 and ("busy" in text or "shutting down" in text):
        return None
    if status == 504 and "time limit" in text:
        return None
    return f"{status} without the pool's or the time limit's reason: {text[:80]}"


def judge_good(route: str, response: httpx.Response) -> Optional[str]:
    """A well-formed request: 200, or 503/504 where the pool or the time limit says so."""
    status = response.status_code
    if status == 200:
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    if status in (503, 504):
        return engine_refusal_problem(route, status, body)
    return f"{status} for a well-formed request: {response.text[:120]}"


def judge_bad(route: str, response: httpx.Response, allowed: tuple = (400, 413, 415, 422)) -> Optional[str]:
    if response.status_code in allowed:
        return None
    return f"{response.status_code} for a malformed request (expected one of {allowed}): {response.text[:120]}"


def timed_call(recorder: Recorder, client: str, route: str, send: Callable[[], httpx.Response],
               judge: Callable[[str, httpx.Response], Optional[str]]) -> Optional[httpx.Response]:
    start = time.monotonic()
    try:
        response = send()
    except httpx.HTTPError as e:
        recorder.add(Record(client, route, f"error:{type(e).__name__}", time.monotonic() - start,
                            f"no answer: {type(e).__name__}: {e}"))
        return None
    seconds = time.monotonic() - start
    problem = judge(route, response)
    if response.status_code >= 500 and response.status_code not in (503, 504):
        problem = problem or f"{response.status_code}"
    recorder.add(Record(client, route, response.status_code, seconds, problem))
    return response


# ----- the clients -----

def cheap_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as c:
        while not stop.is_set():
            kind = rng.randrange(4)
            if kind == 0:
                timed_call(recorder, "cheap", "GET /v1/health", lambda: c.get("/v1/health"), judge_good)
            elif kind == 1:
                timed_call(recorder, "cheap", "GET /v1/version", lambda: c.get("/v1/version"), judge_good)
            elif kind == 2:
                body = {"position": bodies.position(rng), "dice": bodies.dice(rng, doubles=False)}
                timed_call(recorder, "cheap", "POST /v1/moves", lambda: c.post("/v1/moves", json=body), judge_good)
            else:
                body = {"xgid": rng.choice(bodies.xgids)}
                timed_call(recorder, "cheap", "POST /v1/position", lambda: c.post("/v1/position", json=body),
                           judge_good)
            stop.wait(rng.uniform(0.01, 0.05))


def hint_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as c:
        while not stop.is_set():
            ply = rng.choice([0, 0, 1, 1, 2])
            variant = rng.choice(tavla.VARIANTS)
            body = {"position": bodies.position(rng, variant), "dice": bodies.dice(rng), "ply": ply, "top": 3}
            if variant == "gulbara" and ply == 2:
                body["dice"] = bodies.dice(rng, doubles=False)  # a 2-ply cascade is the deep client's
            if rng.random() < 0.2:
                body["cube"] = {"value": 2, "owner": "me"}
            timed_call(recorder, "hint", f"POST /v1/hint ply{ply}", lambda: c.post("/v1/hint", json=body), judge_good)
            stop.wait(rng.uniform(0.02, 0.1))


def turn_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    """Whole games over /v1/turn: rolls and plays chosen at random among the legal moves."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as c:
        while not stop.is_set():
            r = timed_call(recorder, "turn", "POST /v1/turn",
                           lambda: c.post("/v1/turn", json={"new": {"position": {"variant": rng.choice(tavla.VARIANTS)}}}),
                           judge_good)
            for _ in range(400):
                if r is None or r.status_code != 200 or stop.is_set():
                    break
                state = r.json()
                if state["over"]:
                    break
                if state["phase"] == "move":
                    action: dict[str, Any] = {"play": rng.randrange(len(state["moves"])) if state["moves"] else 0}
                else:
                    action = {"roll": bodies.dice(rng)}
                request = {"game": state["game"], "action": action}
                r = timed_call(recorder, "turn", "POST /v1/turn", lambda: c.post("/v1/turn", json=request), judge_good)
                stop.wait(rng.uniform(0.0, 0.02))


def cube_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    cubes = [None, {"value": 2, "owner": "opponent"}, {"value": 1, "match_length": 7, "score": [3, 4]},
             {"value": 4, "owner": "me", "match_length": 9, "score": [1, 5]}, {"jacoby": True, "beaver": True}]
    with httpx.Client(base_url=base, timeout=60) as c:
        while not stop.is_set():
            ply = rng.choice([0, 0, 1])
            if rng.random() < 0.3:
                body = {"xgid": rng.choice(bodies.xgids), "ply": ply}
            else:
                body = {"position": bodies.position(rng), "ply": ply}
                cube = rng.choice(cubes)
                if cube is not None:
                    body["cube"] = cube
            timed_call(recorder, "cube", f"POST /v1/cube ply{ply}", lambda: c.post("/v1/cube", json=body), judge_good)
            stop.wait(rng.uniform(0.05, 0.2))


def malformed_bodies(bodies: Bodies, rng: random.Random) -> list[tuple[str, bytes, str]]:
    """(path, body, content type) of requests the service must refuse with 400, 415 or 422."""
    good = json.dumps({"position": bodies.position(rng), "dice": [3, 1]}).encode()
    return [
        ("/v1/moves", b'{"position": {"variant": "backgammon"}, "dice": [3, 1]', "application/json"),  # cut short
        ("/v1/moves", b"\xff\xfe garbage \x00", "application/json"),
        ("/v1/hint", b"", "application/json"),
        ("/v1/moves", good, "text/plain"),
        ("/v1/moves", good, ""),
        ("/v1/moves", b'{"postion": {"variant": "backgammon"}, "dice": [3, 1]}', "application/json"),
        ("/v1/moves", b'{"position": {"variant": "chess"}, "dice": [3, 1]}', "application/json"),
        ("/v1/moves", b'{"position": {"variant": "backgammon"}, "dice": [9, 1]}', "application/json"),
        ("/v1/moves", json.dumps({"position": {"variant": "backgammon", "mine": [15] * 25, "theirs": [0] * 25},
                                  "dice": [3, 1]}).encode(), "application/json"),
        ("/v1/hint", b'{"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 99999999999999999999999}',
         "application/json"),
        ("/v1/hint", b'{"position": {"variant": "backgammon"}, "dice": [3, 1], "top": 1000000000}', "application/json"),
        ("/v1/hint", b'{"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 3}', "application/json"),
        ("/v1/cube", b'{"xgid": "XGID=not-an-xgid"}', "application/json"),
        ("/v1/cube", b'{"position": {"variant": "backgammon"}, "cube": {"value": 3}}', "application/json"),
        ("/v1/turn", b'{"game": {"events": [{"type": "roll", "dice": [7, 7]}]}}', "application/json"),
        ("/v1/turn", b'{"new": {"position": {"variant": "nardy"}}, "action": {"play": 10000}}', "application/json"),
        ("/v1/moves", b"[" * 8000 + b"]" * 8000, "application/json"),  # deep JSON, under the body limit
        ("/v1/turn", b'{"game": ' + b'{"a": ' * 4000 + b"1" + b"}" * 4001, "application/json"),
        ("/v1/moves", b'{"position": {"variant": "backgammon"}, "dice": [1e999, 1]}', "application/json"),
        ("/v1/moves", b'{"position": {"variant": "backgammon"}, "dice": [NaN, 1]}', "application/json"),
    ]


def malformed_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as c:
        while not stop.is_set():
            for path, body, content_type in malformed_bodies(bodies, rng):
                if stop.is_set():
                    return
                headers = {"content-type": content_type} if content_type else {}
                timed_call(recorder, "malformed", "malformed",
                           lambda: c.post(path, content=body, headers=headers), judge_bad)
                stop.wait(rng.uniform(0.02, 0.1))


def host_port(base: str) -> tuple[str, int]:
    host, port = base.split("//")[1].split(":")
    return host, int(port)


def request_head(host: str, path: str, length: Optional[int] = None, close: bool = False) -> bytes:
    """A POST's request line and headers for a JSON body: of ``length`` bytes, else chunked."""
    size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{size}\r\n"
            + ("Connection: close\r\n" if close else "") + "\r\n").encode()


def raw_request(host: str, port: int, head: bytes, body_parts: Sequence[bytes] = (), pause: float = 0.0,
                read_timeout: float = 30) -> tuple[Optional[int], bytes]:
    """Sends ``head`` then each body part (``pause`` seconds apart) on a fresh socket; answers the status
    and the first bytes of the answer, or (None, b"") when the server closed without one."""
    with socket.create_connection((host, port), timeout=read_timeout) as s:
        try:
            s.sendall(head)
            for part in body_parts:
                if pause:
                    time.sleep(pause)
                s.sendall(part)
        except OSError:
            pass  # the server may answer (413) and close before the whole body is out
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return (int(m.group(1)) if m else None), data


def oversized_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    host, port = host_port(base)
    while not stop.is_set():
        kind = rng.randrange(3)
        start = time.monotonic()
        if kind == 0:  # 1 GB declared, nothing sent: refused from the headers alone
            route = "oversized 1 GB declared"
            status, _ = raw_request(host, port, request_head(host, "/v1/hint", 10**9))
        elif kind == 1:  # streamed without a length until the server stops it
            route = "oversized chunked"
            piece = b" " * 8192
            chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
            status, _ = raw_request(host, port, request_head(host, "/v1/moves"), [chunk] * 64)  # 512 KiB, limit 16
        else:  # just over the limit, with its length
            route = "oversized 17 KiB"
            with httpx.Client(base_url=base, timeout=30) as c:
                r = timed_call(recorder, "oversized", route,
                               lambda: c.post("/v1/moves", content=b" " * (17 * 1024),
                                              headers={"content-type": "application/json"}),
                               lambda route, r: judge_bad(route, r, (413,)))
            stop.wait(rng.uniform(0.2, 0.5))
            continue
        seconds = time.monotonic() - start
        problem = None if status == 413 else f"answered {status} to an oversized body, not 413"
        recorder.add(Record("oversized", route, status if status is not None else "closed", seconds, problem))
        stop.wait(rng.uniform(0.2, 0.5))


# The soak's server closes a connection still sending its request this long after its first byte.
REQUEST_TIMEOUT = 8.0


def slow_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    """Clients that hold connections: a body trickled in, headers trickled in, answers never read, a
    connection that says nothing, and headers trickled for longer than the request timeout."""
    rng = random.Random(seed)
    host, port = host_port(base)
    while not stop.is_set():
        kind = rng.randrange(5)
        start = time.monotonic()
        body = json.dumps({"position": bodies.position(rng, "backgammon"), "dice": [3, 1]}).encode()
        status: Any
        if kind == 0:  # the body, 16 bytes every 20 ms
            route = "slow body"
            head = request_head(host, "/v1/moves", len(body), close=True)
            status, _ = raw_request(host, port, head, [body[k:k + 16] for k in range(0, len(body), 16)], pause=0.02)
            problem = None if status == 200 else f"a slowly sent body got {status}, not 200"
        elif kind == 1:  # the headers, a few bytes at a time
            route = "slow headers"
            text = request_head(host, "/v1/moves", len(body), close=True) + body
            status, _ = raw_request(host, port, b"", [text[k:k + 8] for k in range(0, len(text), 8)], pause=0.02)
            problem = None if status == 200 else f"slowly sent headers got {status}, not 200"
        elif kind == 2:  # 40 pipelined requests with big answers (all the plays of 1-1), never read
            route = "unread answers"
            one = json.dumps({"position": {"variant": "backgammon"}, "dice": [1, 1]}).encode()
            request = request_head(host, "/v1/moves", len(one))
            with socket.create_connection((host, port), timeout=10) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                try:
                    for _ in range(40):
                        s.sendall(request + one)  # the server reads on as the answers drain: none do
                except OSError:
                    pass
                stop.wait(2.0)
            status, problem = "closed", None
        elif kind == 3:  # 8 bytes every 0.5 s: the whole request would take about 20 s
            route = "past the request timeout"
            text = request_head(host, "/v1/moves", len(body), close=True) + body
            status, _ = raw_request(host, port, b"", [text[k:k + 8] for k in range(0, len(text), 8)], pause=0.5,
                                    read_timeout=REQUEST_TIMEOUT + 30)
            took = time.monotonic() - start
            problem = (f"a request trickled past the {REQUEST_TIMEOUT:g} s request timeout got {status} after "
                       f"{took:.1f} s, not closed or 408 near the timeout"
                       if status not in (None, 408) or took > REQUEST_TIMEOUT + 10 else None)
        else:  # connects and sends nothing
            route = "idle connection"
            with socket.create_connection((host, port), timeout=10) as s:
                s.settimeout(10)
                try:
                    closed = s.recv(1) == b""
                except (socket.timeout, OSError):
                    closed = False
            status, problem = ("closed" if closed else "still open"), None
        recorder.add(Record("slow", route, status if status is not None else "closed", time.monotonic() - start,
                            problem))
        stop.wait(rng.uniform(0.1, 0.3))


def deep_client(base: str, bodies: Bodies, recorder: Recorder, stop: threading.Event, seed: int) -> None:
    """2-ply hints of gul bara doubles past the first rolls: each is the whole cascade, searched for
    longer than the time limit (504), its worker busy a while after that. One at a time."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as c:
        while not stop.is_set():
            body = {"position": bodies.position(rng, "gulbara"), "dice": bodies.dice(rng, doubles=True), "ply": 2,
                    "top": 1}
            timed_call(recorder, "deep", "POST /v1/hint deep", lambda: c.post("/v1/hint", json=body), judge_good)
            stop.wait(rng.uniform(1.0, 3.0))


CLIENTS = {"cheap": cheap_client, "hint": hint_client, "turn": turn_client, "cube": cube_client,
           "malformed": malformed_client, "oversized": oversized_client, "slow": slow_client, "deep": deep_client}
DEFAULT_MIX = {"cheap": 2, "hint": 2, "turn": 1, "cube": 1, "malformed": 1, "oversized": 1, "slow": 2, "deep": 1}


# ----- the run and its report -----

@dataclass
class Report:
    seconds: float
    mix: dict
    settings: dict
    records: list
    rss: list  # (seconds since start, MiB)
    checks: list = field(default_factory=list)  # (name, ok, detail)
    server_errors: list = field(default_factory=list)
    idle_cheap_ms: tuple = (float("nan"), float("nan"))  # p50, p99 of the cheap routes before the load
    load: list = field(default_factory=list)  # the machine's 1-minute load average at the start and the end

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.checks)

    def check(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append((name, bool(ok), detail))

    def problems(self) -> list[Record]:
        return [r for r in self.records if r.problem]

    def by_route(self) -> dict[str, list[Record]]:
        out: dict[str, list[Record]] = defaultdict(list)
        for r in self.records:
            out[r.route].append(r)
        return dict(sorted(out.items()))

    def latency(self, route: str) -> tuple[float, float, float]:
        """p50, p99 and max in ms of the answered requests of a route."""
        times = sorted(r.seconds * 1000 for r in self.by_route().get(route, []) if isinstance(r.status, int))
        if not times:
            return (float("nan"),) * 3
        return percentile(times, 50), percentile(times, 99), times[-1]

    def cheap_p99_ms(self) -> float:
        times = sorted(r.seconds * 1000 for r in self.records if r.route in CHEAP and isinstance(r.status, int))
        return percentile(times, 99) if times else float("nan")

    def table(self) -> str:
        lines = ["| route | requests | answers by status | p50 ms | p99 ms | max ms |", "|---|---:|---|---:|---:|---:|"]
        for route, records in self.by_route().items():
            statuses = Counter(str(r.status) for r in records)
            shown = ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items()))
            p50, p99, top = self.latency(route)
            lines.append(f"| {route} | {len(records)} | {shown} | {p50:.0f} | {p99:.0f} | {top:.0f} |")
        return "\n".join(lines)

    def rss_line(self) -> str:
        if not self.rss:
            return "RSS: not measured (no /proc)"
        step = max(1, len(self.rss) // 10)
        points = self.rss[::step] + ([self.rss[-1]] if (len(self.rss) - 1) % step else [])
        return "RSS (MiB) over time: " + ", ".join(f"{t:.0f}s {m:.0f}" for t, m in points)

    def text(self) -> str:
        total = Counter(str(r.status) for r in self.records)
        mix = ", ".join(f"{k} x{n}" for k, n in self.mix.items() if n)
        load = f"; load average {self.load[0]:.1f} at the start, {self.load[-1]:.1f} at the end" if self.load else ""
        out = [f"soak: {self.seconds:.0f} s, {len(self.records)} requests ({mix}); server {self.settings}{load}",
               "statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(total.items())), "", self.table(), "",
               self.rss_line(), ""]
        out += [f"{'ok  ' if ok else 'FAIL'} {name}: {detail}" for name, ok, detail in self.checks]
        for r in self.problems()[:20]:
            out.append(f"  problem: {r.client} {r.route} at {r.at:.1f}s: {r.problem}")
        for line in self.server_errors[:20]:
            out.append(f"  server log: {line}")
        return "\n".join(out)

    def as_json(self) -> dict:
        return {"seconds": self.seconds, "mix": self.mix, "settings": self.settings, "ok": self.ok, "load": self.load,
                "idle_cheap_ms": list(self.idle_cheap_ms),
                "checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in self.checks],
                "routes": {route: {"requests": len(rs), "statuses": dict(Counter(str(r.status) for r in rs)),
                                   "p50_ms": self.latency(route)[0], "p99_ms": self.latency(route)[1],
                                   "max_ms": self.latency(route)[2]} for route, rs in self.by_route().items()},
                "rss_mb": self.rss, "problems": [r.__dict__ for r in self.problems()[:50]],
                "server_errors": self.server_errors[:50]}


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q / 100 * (len(sorted_values) - 1)))))
    return sorted_values[k]


def warm_up(base: str, bodies: Bodies) -> None:
    """What a server makes on first use, made before the clients start: every variant's engines on both workers at
    every ply, and the bear-off tables (seconds each in backgammon and gul bara), so that the RSS measured
    from then on is the server's steady state."""
    bear_off = [3] * 5 + [0] * 20
    requests: list[tuple[str, dict[str, Any]]] = []
    for variant in tavla.VARIANTS:
        for ply in (0, 1, 2):
            requests.append(("/v1/hint", {"position": {"variant": variant}, "dice": [6, 5], "ply": ply}))
            requests.append(("/v1/cube", {"position": {"variant": variant}, "ply": min(ply, 1)}))
        requests.append(("/v1/turn", {"new": {"position": {"variant": variant}}}))
        if variant != "nardy":
            requests.append(("/v1/evaluate", {"position": {"variant": variant, "mine": bear_off, "theirs": bear_off}}))

    def send(part: list) -> None:
        with httpx.Client(base_url=base, timeout=120) as c:
            for path, body in part:
                c.post(path, json=body)

    threads = [threading.Thread(target=send, args=(requests[k::2],)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def idle_latency(base: str, bodies: Bodies, count: int = 100) -> tuple[float, float]:
    """p50 and p99 in ms of the cheap routes with nothing else running: the baseline of the load's."""
    rng = random.Random(5)
    times = []
    with httpx.Client(base_url=base, timeout=30) as c:
        for k in range(count):
            start = time.monotonic()
            if k % 4 == 0:
                c.get("/v1/health")
            elif k % 4 == 1:
                c.get("/v1/version")
            elif k % 4 == 2:
                c.post("/v1/moves", json={"position": bodies.position(rng), "dice": bodies.dice(rng, doubles=False)})
            else:
                c.post("/v1/position", json={"xgid": rng.choice(bodies.xgids)})
            times.append((time.monotonic() - start) * 1000)
    times.sort()
    return percentile(times, 50), percentile(times, 99)


def wait_until_idle(base: str, seconds: float) -> tuple[bool, float]:
    """Polls /v1/health until no engine call is busy: (whether it got there, seconds it took)."""
    start = time.monotonic()
    with httpx.Client(base_url=base, timeout=10) as c:
        while time.monotonic() - start < seconds:
            try:
                if c.get("/v1/health").json()["busy"] == 0:
                    return True, time.monotonic() - start
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            time.sleep(0.2)
    return False, time.monotonic() - start


def run_soak(duration: float = 300, mix: Optional[dict] = None, workers: int = 2, queue: int = 8,
             time_limit: float = 2.0, seed: int = 24, rss_growth_mb: float = 50, cheap_p99_ms: float = 1000,
             rss_every: float = 2.0, shutdown: bool = True, progress: Optional[Callable[[str], None]] = None) -> Report:
    mix = dict(DEFAULT_MIX if mix is None else mix)
    bodies = Bodies(seed)
    server = start_server(workers=workers, queue=queue, max_ply=2, time_limit=time_limit,
                          extra=("--request-timeout", f"{REQUEST_TIMEOUT:g}"))
    settings = {"workers": workers, "queue": queue, "max_ply": 2, "time_limit": time_limit,
                "request_timeout": REQUEST_TIMEOUT}
    recorder = Recorder()
    stop = threading.Event()
    rss: list[tuple[float, float]] = []

    def sample_rss() -> None:
        while not stop.is_set():
            m = rss_mb(server.pid)
            if m is not None:
                rss.append((time.monotonic() - recorder.start, m))
            stop.wait(rss_every)

    threads = [threading.Thread(target=sample_rss, daemon=True)]
    for index, (name, count) in enumerate(mix.items()):
        for k in range(count):
            threads.append(threading.Thread(target=CLIENTS[name], args=(server.url, bodies, recorder, stop,
                                                                        seed * 1000 + index * 50 + k),
                                            name=f"soak-{name}-{k}", daemon=True))
    report = Report(0.0, mix, settings, [], [])
    try:
        rss.append((0.0, rss_mb(server.pid) or float("nan")))
        warm_up(server.url, bodies)
        report.idle_cheap_ms = idle_latency(server.url, bodies)
        report.load = [os.getloadavg()[0]] if hasattr(os, "getloadavg") else []
        recorder.start = time.monotonic()
        for t in threads:
            t.start()
        end = time.monotonic() + duration
        while time.monotonic() < end:
            time.sleep(min(10.0, max(0.0, end - time.monotonic())))
            if progress:
                progress(f"  {time.monotonic() - recorder.start:5.0f} s: {len(recorder.records)} requests, "
                         f"RSS {rss[-1][1] if rss else float('nan'):.0f} MiB")
        stop.set()
        for t in threads:
            t.join(time_limit + 30)
        report.seconds = time.monotonic() - recorder.start
        report.records, report.rss = list(recorder.records), list(rss)
        if hasattr(os, "getloadavg"):
            report.load.append(os.getloadavg()[0])
        judge(report, server, rss_growth_mb, cheap_p99_ms)
        if shutdown:
            check_shutdown(server, bodies, report)
    finally:
        stop.set()
        code = stop_server(server)
    if not shutdown:
        report.check("server stops", code == 0, f"exit status {code} on SIGTERM")
    report.server_errors = server.errors_logged()
    report.check("server log", not report.server_errors, f"{len(report.server_errors)} error lines")
    return report


def judge(report: Report, server: Server, rss_growth_mb: float, cheap_p99_ms: float) -> None:
    records = report.records
    fives = [r for r in records if isinstance(r.status, int) and r.status >= 500 and r.status not in (503, 504)]
    report.check("no 500", not fives, f"{len(fives)} answers 5xx other than 503/504")
    refusals = [r for r in records if isinstance(r.status, int) and r.status in (503, 504)]
    unexplained = [r for r in refusals if r.problem]
    report.check("503/504 only with reason", not unexplained,
                 f"{len(refusals)} answered 503/504 ({Counter(r.status for r in refusals)}), "
                 f"{len(unexplained)} without the pool's or the time limit's reason")
    others = [r for r in report.problems() if r not in fives and r not in unexplained]
    report.check("every answer as expected", not others,
                 f"{len(others)} unexpected (4xx to a good request, no answer, a 2xx to a bad one)")
    deep = [r for r in records if r.route == "POST /v1/hint deep"]
    timeouts = [r for r in deep if r.status == 504]
    early = [r for r in timeouts if r.seconds < server.time_limit * 0.9]
    report.check("deep searches stopped at the limit", bool(deep) and not early,
                 f"{len(deep)} deep searches, {len(timeouts)} answered 504, "
                 f"{len(early)} of them before the time limit")
    samples = report.rss[1:]  # the first is from before the warm-up
    if len(samples) >= 8:
        # The first quarter is still the climb to the high-water mark of concurrent deep searches (a gul bara
        # cascade search allocates tens of MiB for a while, and the allocator keeps it): a leak is growth
        # from the second quarter to the last.
        quarter = len(samples) // 4
        second = statistics.median(m for _, m in samples[quarter:2 * quarter])
        last = statistics.median(m for _, m in samples[-quarter:])
        top = max(m for _, m in samples)
        report.check("RSS flat", last - second < rss_growth_mb,
                     f"{report.rss[0][1]:.0f} MiB at the start, {samples[0][1]:.0f} after the warm-up, {second:.0f} in "
                     f"the second quarter, {last:.0f} in the last (max {top:.0f}): growth {last - second:+.0f} MiB, "
                     f"bound {rss_growth_mb:.0f}")
    else:
        report.check("RSS flat", True, "too few samples to judge")
    idle, waited = wait_until_idle(server.url, server.time_limit * 10 + 30)
    answered = None
    if idle:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            start = time.monotonic()
            r = c.post("/v1/hint", json={"position": {"variant": "backgammon"}, "dice": [3, 1], "ply": 0})
            answered = (r.status_code, time.monotonic() - start)
    report.check("pool recovers", idle and answered is not None and answered[0] == 200 and answered[1] < 2,
                 f"no engine call busy {waited:.1f} s after the load stopped; then a 0-ply hint answered "
                 f"{answered[0] if answered else '-'} in {answered[1] * 1000 if answered else float('nan'):.0f} ms")
    p99 = report.cheap_p99_ms()
    times = sorted(r.seconds * 1000 for r in records if r.route in CHEAP and isinstance(r.status, int))
    report.check("cheap routes quick under load", p99 < cheap_p99_ms,
                 f"{', '.join(CHEAP)} together: p50 {percentile(times, 50):.0f} ms, p99 {p99:.0f} ms under load "
                 f"(bound {cheap_p99_ms:.0f} ms); p50 {report.idle_cheap_ms[0]:.0f} ms, p99 "
                 f"{report.idle_cheap_ms[1]:.0f} ms alone before it")


def check_shutdown(server: Server, bodies: Bodies, report: Report) -> None:
    """SIGTERM with work in flight: 1-ply and 2-ply hints, a deep search, a body still being sent and one
    that stalls. Each must get its answer (200, or 504/503 with their reasons) or a cleanly closed
    connection (the stalled one: closed once the stop's grace is over); the server must exit 0 within the
    time limit and a few seconds, and then take no connection."""
    host, port = host_port(server.url)
    rng = random.Random(7)
    outcomes: list[tuple[str, Any]] = []
    lock = threading.Lock()

    def hint(ply: int, variant: str, doubles: bool) -> None:
        body = {"position": bodies.position(rng, variant), "dice": bodies.dice(rng, doubles=doubles), "ply": ply}
        try:
            r = httpx.post(server.url + "/v1/hint", json=body, timeout=60)
            problem = judge_good("POST /v1/hint", r)
            result: Any = (r.status_code, problem)
        except httpx.HTTPError as e:
            result = (f"closed:{type(e).__name__}", None)
        with lock:
            outcomes.append((f"hint ply{ply} {variant}", result))

    def slow_upload() -> None:
        body = json.dumps({"position": bodies.position(rng, "backgammon"), "dice": [3, 1]}).encode()
        head = request_head(host, "/v1/moves", len(body))
        try:
            status, _ = raw_request(host, port, head, [body[k:k + 8] for k in range(0, len(body), 8)], pause=0.1)
            result: Any = (status if status is not None else "closed", None if status in (None, 200) else "status")
        except OSError as e:
            result = (f"closed:{type(e).__name__}", None)
        with lock:
            outcomes.append(("slow upload", result))

    def stalled_upload() -> None:
        # Headers and a few bytes of the body, then nothing: the stop must not wait for it for ever.
        head = request_head(host, "/v1/moves", 1000)
        try:
            with socket.create_connection((host, port), timeout=server.time_limit + 60) as s:
                s.sendall(head + b'{"position": ')
                data = s.recv(65536)
            m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
            status = int(m.group(1)) if m else None
            result: Any = (status or "closed", None if status in (None, 503) else f"answered {data[:40]!r}")
        except OSError as e:
            result = (f"closed:{type(e).__name__}", None)
        with lock:
            outcomes.append(("stalled upload", result))

    jobs = [threading.Thread(target=hint, args=(1, "backgammon", False)),
            threading.Thread(target=hint, args=(2, "nardy", False)),
            threading.Thread(target=hint, args=(2, "gulbara", True)),
            threading.Thread(target=slow_upload), threading.Thread(target=stalled_upload)]
    for j in jobs:
        j.start()
    time.sleep(0.5)
    start = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    try:
        code = server.proc.wait(server.time_limit + 30)
    except subprocess.TimeoutExpired:
        code = None
    took = time.monotonic() - start
    for j in jobs:
        j.join(60)
    try:
        socket.create_connection((host, port), timeout=2).close()
        refused = False
    except OSError:
        refused = True
    bad = [(what, r) for what, r in outcomes if r[1]]
    shown = "; ".join(f"{what}: {r[0]}" for what, r in sorted(outcomes))
    report.check("graceful shutdown", code == 0 and not bad and len(outcomes) == len(jobs) and refused
                 and took < server.time_limit + 12,
                 f"SIGTERM with {len(jobs)} requests in flight: exit status {code} after {took:.1f} s; {shown}"
                 + ("" if refused else "; still taking connections after exit"))


def main(argv: Optional[list] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=300, help="seconds of load (default 300)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--queue", type=int, default=8)
    p.add_argument("--time-limit", type=float, default=2.0, help="the server's time limit per engine call (s)")
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--rss-growth-mb", type=float, default=50)
    p.add_argument("--cheap-p99-ms", type=float, default=1000)
    for name, count in DEFAULT_MIX.items():
        p.add_argument(f"--{name}", type=int, default=count, help=f"{name} clients (default {count})")
    p.add_argument("--json", help="also write the report as JSON to this file")
    args = p.parse_args(argv)
    mix = {name: getattr(args, name) for name in DEFAULT_MIX}
    print(f"soak: {args.duration:.0f} s against tavla serve (workers {args.workers}, queue {args.queue}, "
          f"time limit {args.time_limit:g} s)", flush=True)
    report = run_soak(args.duration, mix, args.workers, args.queue, args.time_limit, args.seed, args.rss_growth_mb,
                      args.cheap_p99_ms, progress=lambda line: print(line, flush=True))
    print(report.text())
    if args.json:
        from tavla.files import write_atomic

        write_atomic(args.json, json.dumps(report.as_json(), indent=1))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
