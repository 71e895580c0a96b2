"""Engine calls on a bounded pool of worker threads, each bounded in time.

The Rust engine releases the GIL during a search, so threads give real parallelism.
A call that finds every worker busy and the queue full is refused at once (503) rather than
piling up; a call that runs past the time limit is answered as a timeout (504) while its
thread finishes in the background and only then frees its place, so the admitted work
never exceeds what the workers can hold.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

import tavla

from .config import Settings


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
        use (on the worker, since making one may take a while)."""
        engines = self.local.__dict__.setdefault("engines", {})
        rules = dict(position.rules)
        key = (position.variant, ply, tuple(sorted(rules.items())))
        if key not in engines:
            engines[key] = tavla.Engine(position.variant, ply=ply, **rules)
        return engines[key]

    async def run(self, work: Callable[[], Any]) -> tuple[Any, float]:
        """``work()`` on a worker; answers its result and the seconds it took."""
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
        except asyncio.TimeoutError:
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
