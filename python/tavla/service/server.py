"""Running the service under uvicorn, with settings from the environment and flags."""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Optional

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .config import Settings, settings_from_env, with_overrides
from .memory import return_freed_memory


class BannerServer(uvicorn.Server):
    """A uvicorn server that prints where it listens once the socket is bound (not before: a port
    already in use gets uvicorn's error and no banner), with the port actually bound (for port 0)."""

    def __init__(self, config: uvicorn.Config, banner_host: str) -> None:
        super().__init__(config)
        self.banner_host = banner_host

    def bound_port(self) -> Optional[int]:
        for server in getattr(self, "servers", None) or []:
            for sock in getattr(server, "sockets", None) or []:
                name = sock.getsockname()
                if isinstance(name, tuple) and len(name) >= 2:
                    return int(name[1])
        return None

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            port = self.bound_port() or self.config.port
            host = f"[{self.banner_host}]" if ":" in self.banner_host else self.banner_host
            print(f"tavla serve: http://{host}:{port}/ (API under /v1, docs at /v1/docs, "
                  f"schema at /v1/openapi.json)", flush=True)


class IdleClosingProtocol(H11Protocol):
    """uvicorn's HTTP protocol with its keep-alive timeout armed whenever the connection has no request
    in progress: after an answer (as uvicorn does), and also from the moment a connection opens and
    while a request's headers are still coming, so a connection that sends nothing, or stalls in its
    headers, for ``timeout_keep_alive`` seconds is closed (uvicorn alone arms it only after a first
    answer: a connection that never sent a request stayed open for ever). Once a request's headers are
    in, the timer is off until its answer is complete, as before.

    Bytes that keep coming re-arm that timer, so a client trickling its request (slowloris: a byte a
    second, for ever) would hold its connection; so a second timer bounds the whole request: armed at
    its first byte, never re-armed by more, off once the request (headers and body) is complete, it
    closes the connection after ``request_timeout`` seconds (the ``request_timeout`` setting)."""

    request_timeout: float = 30.0
    request_timer: Optional[asyncio.TimerHandle] = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.arm_idle_timeout()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # cancels the timer; a complete request's headers keep it off
        self.bound_request_time()
        self.arm_idle_timeout()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may start a pipelined request already (partly) received
        self.bound_request_time()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.stop_request_timer()
        super().connection_lost(exc)

    def receiving(self) -> bool:
        """Whether a request has begun and is not yet all in: its body is coming, or bytes of its
        headers are buffered (h11's state stays IDLE until the headers are complete)."""
        state = self.conn.their_state
        return state is h11.SEND_BODY or (state is h11.IDLE and bool(self.conn.trailing_data[0]))

    def bound_request_time(self) -> None:
        if not self.receiving() or self.transport.is_closing():
            self.stop_request_timer()
        elif self.request_timer is None:
            self.request_timer = self.loop.call_later(self.request_timeout, self.request_timed_out)

    def stop_request_timer(self) -> None:
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None

    def request_timed_out(self) -> None:
        self.request_timer = None
        if self.receiving() and not self.transport.is_closing():
            # No answer can be sent before the headers are in (nor while the app reads the body): the
            # connection is closed, and an app waiting for the body is told the client went away.
            logging.getLogger("uvicorn.error").warning(
                "closing a connection whose request took over %s s to arrive", self.request_timeout)
            self.transport.close()

    def arm_idle_timeout(self) -> None:
        serving = self.cycle is not None and not self.cycle.response_complete
        if serving or self.transport.is_closing() or self.timeout_keep_alive_task is not None:
            return
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)


# Seconds a stop (Ctrl-C, SIGTERM) waits for the requests in flight beyond the engine's time limit (which
# bounds every engine call): enough to write their answers. A client still sending its body then (a slow or
# stalled upload) has its connection closed, so that it cannot hold the stop up for ever.
SHUTDOWN_GRACE = 5


def shutdown_timeout(settings: Settings) -> int:
    """How long a stop waits for requests in flight before it cancels them (uvicorn takes whole seconds)."""
    return math.ceil(settings.time_limit) + SHUTDOWN_GRACE


def server_for(settings: Settings, access_log: bool = True) -> BannerServer:
    """The uvicorn server of the service: errors and warnings logged, and one access-log line per
    request unless ``access_log`` is False. A stop lets the requests in flight finish, up to
    ``shutdown_timeout``; a connection idle for ``settings.keep_alive`` seconds (after an answer, or before
    its first request is in), or still sending a request ``settings.request_timeout`` seconds after its
    first byte, is closed."""
    protocol = type("ServiceProtocol", (IdleClosingProtocol,), {"request_timeout": settings.request_timeout})
    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                            access_log=access_log, server_header=False,
                            timeout_graceful_shutdown=shutdown_timeout(settings),
                            # An idle connection is closed after this: idle clients hold no socket for ever.
                            timeout_keep_alive=settings.keep_alive, http=protocol)
    if access_log:
        # log_level "warning" keeps uvicorn's start-up chatter out; the access log logs at INFO.
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    return BannerServer(config, settings.host)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (how a process manager or a container stops the service) ends ``tavla serve`` as Ctrl-C does:
    uvicorn shuts down gracefully on either, then raises the signal again once done; by default SIGTERM
    would then kill the process (exit status -15), this makes it a KeyboardInterrupt, and exit status 0."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def serve(args: argparse.Namespace) -> int:
    settings = with_overrides(
        settings_from_env(),
        host=args.host,
        port=args.port,
        workers=args.workers,
        queue=args.queue,
        default_ply=args.default_ply,
        max_ply=args.max_ply,
        time_limit=args.time_limit,
        max_body=args.max_body,
        max_game_body=args.max_game_body,
        max_match_body=getattr(args, "max_match_body", None),
        job_workers=getattr(args, "job_workers", None),
        max_jobs=getattr(args, "max_jobs", None),
        job_time_limit=getattr(args, "job_time_limit", None),
        keep_alive=getattr(args, "keep_alive", None),
        request_timeout=getattr(args, "request_timeout", None),
    )
    return_freed_memory()
    server = server_for(settings, access_log=not getattr(args, "quiet", False))
    try:
        with terminate_as_interrupt():
            server.run()
    except SystemExit as e:  # uvicorn exits when it cannot bind; it has logged why
        return e.code if isinstance(e.code, int) else 1
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM is how the service is stopped: uvicorn has shut down cleanly
        return 0
    if not server.started:
        print(f"tavla serve: could not listen on {settings.host}:{settings.port}", file=sys.stderr)
        return 1
    return 0
