"""/v1/rollouts: a position rolled out as a job (``Engine.rollout``), started, polled for its progress
(trials played) and cancelled over HTTP, on the same bounded job store as the match analyses."""

from __future__ import annotations

from typing import Any, Callable

from fastapi import FastAPI

import tavla

from .analyses import JOB_START_ERRORS, add_job_routes, job_out
from .config import Settings
from .engine_pool import evaluator_for
from .jobs import JobStore, Progress
from .positions import BadInput, parse_source
from .schemas import JobOut, RolloutRequest

ROLLOUTS = "/v1/rollouts"


def add_rollout_routes(app: FastAPI, settings: Settings, jobs: JobStore, responses: dict,
                       cube_of: Callable[[Any, Any], Any]) -> None:
    @app.post(ROLLOUTS, response_model=JobOut, status_code=202, responses={**responses, **JOB_START_ERRORS},
              tags=["analysis"])
    async def start_rollout(request: RolloutRequest):
        """Start rolling a position out (the player on roll, before its roll): cubeless, and cubeful too
        under the request's ``cube`` or the one the position records; with variance reduction,
        truncation or a target standard error as asked. Answers 202 with the job; the result, once
        done, has the probabilities, the equity with its standard error and 95% interval, and the
        trials played. Bad settings answer 422 at once."""
        for name, ply in (("ply", request.ply), ("cube_ply", request.cube_ply)):
            if ply > settings.max_ply:
                raise BadInput(f"{name} {ply} is above this service's maximum {settings.max_ply}")
        parsed = parse_source(request)
        position = parsed.position
        cube = cube_of(request, parsed)
        try:
            rules: dict[str, Any] = dict(position.rules)
            engine = tavla.Engine(position.variant, ply=0, threads=1, evaluator=evaluator_for(position.variant), **rules)
        except ValueError as e:
            raise BadInput(f"position: {e}") from None

        def work(progress: Progress) -> dict[str, Any]:
            progress(0, request.trials)
            result = progress.engine(engine).rollout(
                position, trials=request.trials, seed=request.seed, cube=cube, ply=request.ply, cube_ply=request.cube_ply,
                variance_reduction=request.variance_reduction, truncate=request.truncate,
                stop_at_bearoff=request.stop_at_bearoff, target_error=request.target_error, rolls=request.rolls,
                progress=lambda done, trials, _equity: progress(done, trials))
            return result.to_dict()

        return job_out(jobs.start("rollout", work))

    add_job_routes(app, ROLLOUTS, "rollout", jobs,
                   poll="A rollout's state and progress (trials played of those asked), and its result once done.",
                   cancel="Cancel a rollout: it stops within the trial it is playing (that batch of trials is dropped).")
