"""Engine calls on a bounded pool of worker threads, each bounded in time.

The Rust engine releases the GIL during a search, so threads give real parallelism.
A call that finds every worker busy and the queue full is refused at once (503) rather than
piling up; a call that runs past the time limit is answered as a timeout (504). An engine call
made with the call's ``tavla.CancelToken`` (``run(work, token)``; the routes' engines come from
``Engine.with_cancel``) is cancelled then: the search stops within moments and its worker is free
for the next call (a call still queued is dropped). Work that takes no token finishes in the
background and only then frees its place, so the admitted work never exceeds what the workers
can hold.

The exact bear-off tables are built once per process on first use (about a second each); the
pool builds them as it starts (``warm_up``), so that the first hint of a bear-off is not slow.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Optional

import tavla
from tavla._core import _bearoff_info

from .config import Settings


# Engines each worker keeps, the most recently used: one per variant, ply and rule set asked for. Requests
# choose the rule options (gul bara's alone have thousands of sets), and an engine holds its own copy of
# the networks (50 KB to 0.4 MB), so an unbounded set grew with every new rule set a client sent.
ENGINES_PER_WORKER = 16


def evaluator_for(variant: str) -> str:
    """The evaluator the service's engines use for a variant: its network, or the heuristic for the
    reserve games (Dutch backgammon, acey-deucey), for which no network is trained."""
    return "heuristic" if variant in tavla.RESERVE_VARIANTS else "network"


class Busy(RuntimeError):
    """Every worker and queue place is taken (answered 503)."""


class TimedOut(RuntimeError):
    """The engine did not answer within the time limit (answered 504)."""


class EnginePool:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="tavla-engine")
        self.places = threading.BoundedSemaphore(settings.workers + settings.queue)
        self.busy = 0
        self.busy_lock = threading.Lock()
        # One set of engines per worker thread: an engine may keep caches that are not meant to be
        # shared by two searches at once, and a worker runs one search at a time.
        self.local = threading.local()

    def engine(self, position: Any, ply: int) -> Any:
        """This worker's engine for the position's variant and rule options at a ply, made on first
        use (on the worker, since making one may take a while), the least recently used dropped past
        ``ENGINES_PER_WORKER``."""
        engines: OrderedDict = self.local.__dict__.setdefault("engines", OrderedDict())
        rules = dict(position.rules)
        key = (position.variant, ply, tuple(sorted(rules.items())))
        if key in engines:
            engines.move_to_end(key)
        else:
            engines[key] = tavla.Engine(position.variant, ply=ply, evaluator=evaluator_for(position.variant), **rules)
            if len(engines) > ENGINES_PER_WORKER:
                engines.popitem(last=False)
        return engines[key]

    def warm_up(self) -> float:
        """Builds what the engine builds on first use, the bear-off tables of every rule set (backgammon
        and nardy share one, gul bara has its own); answers the seconds it took."""
        start = time.perf_counter()
        for variant in ("backgammon", "gulbara"):
            _bearoff_info(variant, [0] * 6)
        return time.perf_counter() - start

    async def run(self, work: Callable[[], Any], token: Optional[Any] = None) -> tuple[Any, float]:
        """``work()`` on a worker; answers its result and the seconds it took. ``token`` (a
        ``tavla.CancelToken`` that ``work``'s engine calls were made with) is cancelled when the call
        runs past the time limit, which frees the worker at once."""
        if not self.places.acquire(blocking=False):
            raise Busy("the engine is busy: every worker and queue place is taken; retry shortly")
        with self.busy_lock:
            self.busy += 1
        try:
            future: Future = self.executor.submit(timed, work)
        except RuntimeError:  # the pool is shutting down
            self.free_place(None)
            raise Busy("the service is shutting down") from None
        future.add_done_callback(self.free_place)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=self.settings.time_limit)
        except asyncio.CancelledError:
            # The request itself was cancelled (a stop whose grace ran out): so is its search.
            if token is not None:
                token.cancel()
            raise
        except asyncio.TimeoutError:
            if token is not None:
                token.cancel()  # the search ends now: its Cancelled goes nowhere, its worker is free
            raise TimedOut(
                f"the engine did not answer within the time limit of {self.settings.time_limit:g} s; "
                "ask for a lower ply"
            ) from None

    def free_place(self, _future: Any) -> None:
        with self.busy_lock:
            self.busy -= 1
        self.places.release()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start
