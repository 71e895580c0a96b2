#!/usr/bin/env python3
"""Load benchmark of the hint service on loopback: throughput and p50/p99 latency.

Starts ``tavla serve`` on a free 127.0.0.1 port, then several concurrent clients (one thread and one
keep-alive connection each) send requests for positions from seeded random play with seeded dice,
bounded by a request count and a time limit per route. Routes: legal moves, and 0-ply and 1-ply
hints. Prints a Markdown table; any answer other than 200 counts as an error.

    python scripts/bench_service.py --variant backgammon --clients 8 --requests 2000 --seconds 20
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

import httpx

import tavla
from tavla.sampling import random_positions


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(port: int, workers: int, max_ply: int, time_limit: float) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--workers", str(workers), "--queue", "256", "--max-ply", str(max_ply), "--default-ply", "0",
           "--time-limit", str(time_limit)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90  # the service builds the bear-off tables before it listens
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the service did not start: {proc.communicate()[1]}")


def request_bodies(variant: str, count: int, seed: int, route: str, ply: int | None) -> list[dict]:
    rng = random.Random(seed)
    bodies = []
    for pos in random_positions(variant, count, seed=seed):
        mine, theirs = pos.to_arrays()
        body = {"position": {"variant": variant, "mine": mine, "theirs": theirs},
                "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        if route == "/v1/hint":
            body["ply"] = ply
        bodies.append(body)
    return bodies


def run_load(base: str, route: str, bodies: list[dict], clients: int, requests: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    next_index = [0]
    stop_at = time.monotonic() + seconds

    def client() -> None:
        with httpx.Client(base_url=base, timeout=60) as c:
            while time.monotonic() < stop_at:
                with lock:
                    k = next_index[0]
                    if k >= requests:
                        return
                    next_index[0] += 1
                t0 = time.perf_counter()
                try:
                    r = c.post(route, json=bodies[k % len(bodies)])
                    ok, what = r.status_code == 200, f"{r.status_code} {r.text[:100]}"
                except httpx.HTTPError as e:
                    ok, what = False, repr(e)
                elapsed = time.perf_counter() - t0
                with lock:
                    (latencies.append(elapsed) if ok else errors.append(what))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    done = len(latencies)
    return {
        "requests": done + len(errors),
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "throughput": done / wall if wall else 0.0,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[min(done - 1, int(0.99 * done))] if latencies else float("nan"),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="backgammon", choices=tavla.VARIANTS)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="service engine threads")
    ap.add_argument("--requests", type=int, default=2000, help="most requests per route")
    ap.add_argument("--seconds", type=float, default=20.0, help="most seconds per route")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()

    routes: list[tuple[str, str, int | None]] = [
        ("legal moves", "/v1/moves", None), ("hint 0-ply", "/v1/hint", 0), ("hint 1-ply", "/v1/hint", 1)]

    port = free_port()
    proc = start_service(port, args.workers, max_ply=1, time_limit=30)
    base = f"http://127.0.0.1:{port}"
    rows = []
    try:
        for name, route, ply in routes:
            bodies = request_bodies(args.variant, args.positions, args.seed, route, ply)
            run_load(base, route, bodies[:50], args.clients, 100, 10)  # warm-up: engines, tables, caches
            rows.append((name, run_load(base, route, bodies, args.clients, args.requests, args.seconds)))
    finally:
        proc.terminate()
        proc.wait(10)

    print(f"{args.variant}, {args.clients} concurrent clients, service with {args.workers} engine worker(s), "
          f"up to {args.requests} requests or {args.seconds:g} s per route\n")
    print("| route | requests | errors | throughput (req/s) | p50 (ms) | p99 (ms) |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['requests']} | {r['errors']} | {r['throughput']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} |")
    failures = [f"{name}: {r['first_error']}" for name, r in rows if r["errors"]]
    for f in failures:
        print(f"first error on {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
