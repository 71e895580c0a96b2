"""/v1/analyses: a match file analysed as a job (``tavla.analysis`` at the requested ply), started,
polled and cancelled over HTTP; the result is what ``tavla analyze FILE --json`` prints."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .. import analysis
from .config import Settings
from .jobs import Job, JobStore, Progress
from .positions import BadInput
from .schemas import AnalysisRequest, ErrorOut, JobOut

ANALYSES = "/v1/analyses"

JOB_ERRORS: dict[Any, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "no job has this id (or it finished long ago and was forgotten)"},
}
JOB_START_ERRORS: dict[Any, dict[str, Any]] = {
    503: {"model": ErrorOut, "description": "the most unfinished jobs the service runs at once are running"},
}


def add_job_routes(app: FastAPI, path: str, kind: str, jobs: JobStore, poll: str, cancel: str) -> None:
    """``GET`` and ``DELETE`` of ``path/{job_id}``: a job of ``kind`` polled (``poll`` documents it)
    and cancelled (``cancel``)."""

    async def poll_job(job_id: str):
        return job_out(jobs.get(job_id))

    async def cancel_job(job_id: str):
        return job_out(jobs.cancel(job_id))

    app.get(path + "/{job_id}", response_model=JobOut, responses=JOB_ERRORS, tags=["analysis"],
            operation_id=f"poll_{kind}", description=poll)(poll_job)
    app.delete(path + "/{job_id}", response_model=JobOut, responses=JOB_ERRORS, tags=["analysis"],
               operation_id=f"cancel_{kind}", description=cancel)(cancel_job)


def job_out(job: Job) -> JobOut:
    return JobOut(id=job.id, kind=job.kind, state=job.state, done=job.done, total=job.total,  # type: ignore[arg-type]
                  result=job.result if job.state == "done" else None, error=job.error)


def analysis_work(request: AnalysisRequest, ply: int):
    """The job: the match read in its format (named or detected; the readers' errors name the line),
    then every game analysed by an engine of its variant."""
    try:
        match = analysis.read_match_data("", request.mat.encode("utf-8"), request.format)
    except ValueError as e:
        raise BadInput(f"{'mat' if request.format is None else f'mat (as {request.format})'}: {e}") from None

    def work(progress: Progress) -> dict[str, Any]:
        progress(0, len(match["games"]))
        report = analysis.analyze_match(progress.engine(analysis.match_engine(match, ply)), match, progress=progress)
        if not request.decisions:
            report.pop("decisions")
            report.pop("rolls")
        return report

    return work


def add_analysis_routes(app: FastAPI, settings: Settings, jobs: JobStore, responses: dict) -> None:
    @app.post(ANALYSES, response_model=JobOut, status_code=202, responses={**responses, **JOB_START_ERRORS},
              tags=["analysis"])
    async def start_analysis(request: AnalysisRequest):
        """Start analysing a match file: every checker play and cube decision judged at the game's cube
        and score, gnubg's marks, luck, and per player the error rates and PR (see ``tavla analyze``).
        Answers 202 with the job; a file the reader refuses answers 422 naming the line at once."""
        ply = settings.default_ply if request.ply is None else request.ply
        if ply > settings.max_ply:
            raise BadInput(f"ply {ply} is above this service's maximum {settings.max_ply}")
        return job_out(jobs.start("analysis", analysis_work(request, ply)))

    add_job_routes(app, ANALYSES, "analysis", jobs,
                   poll="A job's state and progress (games analysed of the match's), and its result once done.",
                   cancel="Cancel a job: it stops within the decision it is analysing; a finished job is left as it is.")
