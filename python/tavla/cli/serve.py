"""``tavla serve``: the command-line face of the HTTP hint service (``tavla.service``),
which is imported only when the command runs, since it needs the ``serve`` extra."""

from __future__ import annotations

import argparse


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    # Unset flags keep the TAVLA_* environment value, or the default.
    p.add_argument("--host", help="address to bind (default 127.0.0.1; env TAVLA_HOST)")
    p.add_argument("--port", type=int, help="port (default 8000; env TAVLA_PORT)")
    p.add_argument("--workers", type=int, help="engine worker threads (default 2; env TAVLA_WORKERS)")
    p.add_argument("--queue", type=int, help="engine calls that may wait for a worker (default 16; env TAVLA_QUEUE)")
    p.add_argument("--default-ply", type=int, help="ply when a request names none (default 1; env TAVLA_DEFAULT_PLY)")
    p.add_argument("--max-ply", type=int, help="highest ply a request may ask for (default 2; env TAVLA_MAX_PLY)")
    p.add_argument("--time-limit", type=float, help="seconds per engine request (default 10; env TAVLA_TIME_LIMIT)")
    p.add_argument("--max-body", type=int, help="largest request body in bytes (default 16384; env TAVLA_MAX_BODY)")
    p.add_argument("--max-game-body", type=int, help="largest /v1/turn body, which carries a game record, in bytes "
                   "(default 262144; env TAVLA_MAX_GAME_BODY)")
    p.add_argument("--max-match-body", type=int, help="largest /v1/analyses body, which carries a match file, in "
                   "bytes (default 5 MiB; env TAVLA_MAX_MATCH_BODY)")
    p.add_argument("--job-workers", type=int, help="threads for jobs such as match analyses, apart from the engine "
                   "workers (default 1; env TAVLA_JOB_WORKERS)")
    p.add_argument("--max-jobs", type=int, help="unfinished jobs at once (default 8; env TAVLA_MAX_JOBS)")
    p.add_argument("--job-time-limit", type=float, help="seconds a job may run (default 1800; env TAVLA_JOB_TIME_LIMIT)")
    p.add_argument("--keep-alive", type=int, help="seconds before an idle keep-alive connection is closed "
                   "(default 5; env TAVLA_KEEP_ALIVE)")
    p.add_argument("--request-timeout", type=float, help="seconds a client may take to send a whole request, "
                   "headers and body (default 30; env TAVLA_REQUEST_TIMEOUT)")
    p.add_argument("--quiet", "--no-access-log", dest="quiet", action="store_true",
                   help="no access log (by default one line per request)")


def run_serve(args: argparse.Namespace) -> int:
    try:
        from ..service.server import serve
    except ImportError as e:
        raise ValueError(f'the service needs its extra: pip install "tavla[serve]" ({e})') from None
    return serve(args)
