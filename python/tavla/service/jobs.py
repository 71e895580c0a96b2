"""Long work as jobs: started by one request, polled by others, cancelled on demand.

A job (a match analysed, later rollouts) runs for longer than a request may wait, so the service
answers its start at once with an id; ``GET`` says its state and progress and, once done, its result;
``DELETE`` cancels it. Jobs run on their own small pool of threads, so that they never hold up the
engine workers that answer hints, and the store is bounded: at most ``max_jobs`` unfinished at once
(more answer 503), finished ones kept ``keep_seconds`` and then forgotten (the oldest first when
the store is full). Work reports progress through the ``Progress`` it is given, and runs its engines
through ``progress.engine``: a cancel or the job time limit stops it at its next step, and also in the
middle of an engine call (a deep search, a batch of rollout trials), which raises ``tavla.Cancelled``
through the job's ``CancelToken`` within moments, so a cancelled job frees its worker at once.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .._core import Cancelled, CancelToken


class JobStopped(Exception):
    """Raised inside a job's work when it is cancelled or runs past the time limit."""


class NoSuchJob(KeyError):
    """The id names no job (never started, or finished long enough ago to be forgotten)."""


class TooManyJobs(RuntimeError):
    """Every place for unfinished jobs is taken (answered 503)."""


#: A job's states; the last three are final.
STATES = ("queued", "running", "done", "failed", "cancelled")


@dataclass
class Job:
    id: str
    kind: str
    created: float = field(default_factory=time.time)
    state: str = "queued"
    done: int = 0
    total: int = 0
    result: Any = None
    error: Optional[str] = None
    finished: Optional[float] = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    # The engines' token while it runs (made when it starts, with the time limit as its deadline).
    token: Optional[CancelToken] = None

    @property
    def is_final(self) -> bool:
        return self.state in ("done", "failed", "cancelled")


class Progress:
    """What work calls as it goes: ``progress(done, total)``; it raises ``JobStopped`` when the job
    is cancelled or past its time limit, so work stops at its next step."""

    def __init__(self, job: Job, token: CancelToken):
        self.job = job
        self.token = token  # cancelled by a DELETE, and by itself at the job time limit

    def engine(self, engine: Any) -> Any:
        """``engine`` stopped mid-call (raising ``tavla.Cancelled``) when the job is cancelled or past its
        time limit."""
        return engine.with_cancel(self.token)

    def __call__(self, done: int, total: int) -> None:
        self.job.done, self.job.total = done, total
        self.check()

    def check(self) -> None:
        if self.token.cancelled:
            raise JobStopped(stop_reason(self.job))


def stop_reason(job: Job) -> str:
    """Why a job's token is cancelled: a cancel (DELETE, shutdown), else the job time limit."""
    return "cancelled" if job.cancelled.is_set() else "ran past the job time limit"


class JobStore:
    def __init__(self, workers: int = 1, max_jobs: int = 8, keep_seconds: float = 3600.0,
                 time_limit: float = 600.0, max_kept: int = 64):
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tavla-job")
        self.max_jobs = max_jobs
        self.keep_seconds = keep_seconds
        self.time_limit = time_limit
        self.max_kept = max_kept
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Lock()

    def start(self, kind: str, work: Callable[[Progress], Any]) -> Job:
        """Queues ``work(progress)``; its return value becomes the job's result."""
        with self.lock:
            self.forget_old()
            unfinished = sum(not j.is_final for j in self.jobs.values())
            if unfinished >= self.max_jobs:
                raise TooManyJobs(f"{unfinished} jobs are unfinished, the most this service runs at once; "
                                  "retry when one has finished, or cancel one")
            job = Job(id=secrets.token_hex(8), kind=kind)
            self.jobs[job.id] = job
        try:
            self.executor.submit(self.run, job, work)
        except RuntimeError:  # shutting down
            with self.lock:
                self.jobs.pop(job.id, None)
            raise TooManyJobs("the service is shutting down") from None
        return job

    def run(self, job: Job, work: Callable[[Progress], Any]) -> None:
        # The token first, the cancel flag after: a cancel in between finds the token (see ``cancel``).
        job.token = CancelToken(self.time_limit)
        if job.cancelled.is_set():
            self.finish(job, "cancelled", error="cancelled before it started")
            return
        job.state = "running"
        progress = Progress(job, job.token)
        try:
            result = work(progress)
        except JobStopped as e:
            self.finish(job, "cancelled", error=str(e))
        except Cancelled:  # an engine call stopped by the job's token
            self.finish(job, "cancelled", error=stop_reason(job))
        except ValueError as e:  # bad input found on the way (a move the rules refuse...)
            self.finish(job, "failed", error=str(e))
        except Exception as e:  # noqa: BLE001 - a job must end in a state, whatever went wrong
            self.finish(job, "failed", error=f"internal error ({type(e).__name__})")
        else:
            job.result = result
            self.finish(job, "done")

    def finish(self, job: Job, state: str, error: Optional[str] = None) -> None:
        job.error = error
        job.finished = time.time()
        job.state = state

    def get(self, job_id: str) -> Job:
        with self.lock:
            self.forget_old()
            job = self.jobs.get(job_id)
        if job is None:
            raise NoSuchJob(job_id)
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        self.stop(job)
        return job

    @staticmethod
    def stop(job: Job) -> None:
        job.cancelled.set()
        if job.token is not None:
            job.token.cancel()

    def forget_old(self) -> None:
        """Drops finished jobs past their keeping time, and the oldest finished beyond ``max_kept``."""
        now = time.time()
        for job_id in [k for k, j in self.jobs.items() if j.is_final and now - (j.finished or now) > self.keep_seconds]:
            del self.jobs[job_id]
        finished = [k for k, j in self.jobs.items() if j.is_final]
        for job_id in finished[: max(0, len(self.jobs) - self.max_kept)]:
            del self.jobs[job_id]

    def close(self) -> None:
        with self.lock:
            for job in self.jobs.values():
                self.stop(job)
        self.executor.shutdown(wait=False, cancel_futures=True)
