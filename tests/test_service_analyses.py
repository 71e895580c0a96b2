"""/v1/analyses: a match file analysed as a job, polled to its result (the same as ``tavla analyze
--json``), cancelled, and every bad request refused with a message naming what is wrong."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import client_fixture, http_client, post_checked  # noqa: E402
from tavla import analysis, formats  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402
from tavla.service.jobs import JobStore  # noqa: E402

DATA = Path(__file__).parent / "data"
MAT = (DATA / "gnubg_3pt.mat").read_text()
SGF = (DATA / "gnubg" / "match3_1.sgf").read_text()


client = client_fixture(Settings(max_jobs=2), timeout=30)


def wait_for(client, job_id, seconds=120, jobs="/v1/analyses"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"{jobs}/{job_id}").json()
        if job["state"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['state']} after {seconds} s")


def test_an_analysis_job_answers_what_tavla_analyze_prints(client, openapi):
    job = post_checked(client, openapi, "/v1/analyses", {"mat": MAT, "ply": 0, "decisions": True}, 202)
    assert job["kind"] == "analysis" and job["state"] in ("queued", "running")
    done = wait_for(client, job["id"])
    assert done["state"] == "done" and done["done"] == done["total"] == 2 and done["error"] is None
    expected = analysis.analyze_match(tavla.Engine("backgammon", ply=0), formats.read_mat(MAT))
    assert done["result"]["players"] == expected["players"]
    assert done["result"]["final_score"] == [0, 5] and len(done["result"]["decisions"]) == len(expected["decisions"])
    # Without decisions: the summary alone.
    brief = wait_for(client, post_checked(client, openapi, "/v1/analyses", {"mat": MAT, "ply": 0}, 202)["id"])
    assert set(brief["result"]) == {"match_length", "final_score", "players"}


@pytest.mark.parametrize("body,status,words", [
    ({"mat": MAT.replace("13/9 24/23", "13/9 24/22", 1)}, 422, "mat: line 7"),
    ({"mat": "not a match"}, 422, "mat:"),
    ({"mat": MAT, "ply": 3}, 422, "above this service's maximum 2"),
    ({"mat": MAT, "ply": "1"}, 422, "ply"),
    ({"mat": 5}, 422, "mat"),
    ({}, 422, "mat"),
    ({"mat": MAT, "format": "sgf"}, 422, "mat (as sgf): "),
    ({"mat": MAT, "format": "xml"}, 422, "format"),
    ({"mat": SGF[: len(SGF) // 2]}, 422, "mat: "),
    ({"mat": "; [Variation \"gulbara\"]\n 1 point match\n Game 1\n x"}, 422, "mat: "),
])
def test_bad_analysis_requests_are_refused_at_once(client, openapi, body, status, words):
    answer = post_checked(client, openapi, "/v1/analyses", body, status)
    assert words in answer["error"], answer


def test_sgf_and_match_text_are_analysed_by_their_variant(client, openapi):
    """An .sgf (detected from its content, or named) and a long nardy match text, each analysed by an
    engine of its own variant, as ``tavla analyze`` does."""
    expected = analysis.read_match_data("x.sgf", SGF.encode())
    for body in ({"mat": SGF, "ply": 0}, {"mat": SGF, "ply": 0, "format": "sgf"}):
        done = wait_for(client, post_checked(client, openapi, "/v1/analyses", body, 202)["id"])
        assert done["state"] == "done" and done["done"] == len(expected["games"]), done
        assert done["result"]["final_score"] == list(expected["score"])
    match = tavla.Match("nardy", 1, seed=4)
    match.play_out(("greedy", "greedy"), seed=5)
    text = formats.write_match_text(match, ("alice", "bob"))
    done = wait_for(client, post_checked(client, openapi, "/v1/analyses", {"mat": text, "ply": 0}, 202)["id"])
    assert done["state"] == "done", done
    report = analysis.analyze_match(tavla.Engine("nardy", ply=0), formats.read_match_text(text))
    assert done["result"]["players"] == report["players"]


def test_an_unknown_job_is_a_404(client):
    r = client.get("/v1/analyses/0123456789abcdef")
    assert r.status_code == 404 and "no job" in r.json()["error"]
    assert client.delete("/v1/analyses/nope").status_code == 404


def test_a_huge_match_body_is_refused_from_its_headers():
    with http_client(create_app(Settings(max_match_body=4096)), timeout=10) as c:
        r = c.post("/v1/analyses", json={"mat": MAT * 10})
        assert r.status_code == 413


def test_a_job_is_cancelled_between_steps_and_the_store_is_bounded():
    store = JobStore(workers=1, max_jobs=1, time_limit=60)
    started = []

    def slow(progress):
        for k in range(1000):
            started.append(k)
            progress(k, 1000)
            time.sleep(0.01)
        return "finished"

    job = store.start("test", slow)
    while not started:
        time.sleep(0.01)
    from tavla.service.jobs import TooManyJobs

    with pytest.raises(TooManyJobs):
        store.start("test", slow)
    store.cancel(job.id)
    deadline = time.monotonic() + 10
    while not job.is_final and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.state == "cancelled" and job.error == "cancelled" and len(started) < 1000
    # A job past its time limit stops the same way; a failing one says why.
    store = JobStore(workers=1, time_limit=0.05)
    timed = store.start("test", slow)
    failing = store.start("test", lambda progress: int("x"))
    deadline = time.monotonic() + 10
    while not (timed.is_final and failing.is_final) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert timed.state == "cancelled" and timed.error == "ran past the job time limit"
    assert failing.state == "failed" and "invalid literal" in failing.error
    store.close()


# ----- rollouts as jobs -----

def test_a_rollout_job_answers_what_engine_rollout_gives(client, openapi):
    start = tavla.Position.start()
    body = {"position": {"variant": "backgammon"}, "trials": 72, "seed": 3}
    job = post_checked(client, openapi, "/v1/rollouts", body, 202)
    assert job["kind"] == "rollout"
    done = wait_for_rollout(client, job["id"])
    assert done["state"] == "done" and done["done"] == done["total"] == 72
    here = tavla.Engine("backgammon", ply=0, threads=1).rollout(start, trials=72, seed=3).to_dict()
    assert done["result"] == __import__("json").loads(__import__("json").dumps(here))
    # Cubeful with 1-ply cube decisions: the engine's answer with cube_ply=1.
    body = {**body, "trials": 36, "truncate": 4, "cube": {}, "cube_ply": 1}
    done = wait_for_rollout(client, post_checked(client, openapi, "/v1/rollouts", body, 202)["id"])
    here = tavla.Engine("backgammon", ply=0, threads=1).rollout(start, trials=36, seed=3, truncate=4,
                                                                 cube=tavla.CubeState(), cube_ply=1).to_dict()
    assert done["state"] == "done" and done["result"] == __import__("json").loads(__import__("json").dumps(here))


def test_a_rollout_job_is_cancelled(client, openapi):
    body = {"position": {"variant": "nardy"}, "trials": 100_000, "seed": 1}
    job = post_checked(client, openapi, "/v1/rollouts", body, 202)
    r = client.delete(f"/v1/rollouts/{job['id']}")
    assert r.status_code == 200
    done = wait_for_rollout(client, job["id"])
    assert done["state"] == "cancelled" and done["done"] < 100_000


@pytest.mark.parametrize("jobs,body", [
    # A 2-ply rollout's first batch of trials, or a 2-ply analysis's decision: each tens of seconds.
    ("/v1/rollouts", {"position": {"variant": "backgammon"}, "trials": 100_000, "ply": 2}),
    ("/v1/analyses", {"mat": MAT, "ply": 2}),
])
def test_a_deleted_job_stops_its_engine_at_once_and_frees_the_worker(client, openapi, jobs, body):
    job = post_checked(client, openapi, jobs, body, 202)
    deadline = time.monotonic() + 30
    while client.get(f"{jobs}/{job['id']}").json()["state"] == "queued" and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # well into its engine work
    asked = time.monotonic()
    assert client.delete(f"{jobs}/{job['id']}").status_code == 200
    done = wait_for(client, job["id"], jobs=jobs)
    assert done["state"] == "cancelled" and done["error"] == "cancelled", done
    assert time.monotonic() - asked < 2.0
    # The one job worker is free: a short job runs to its end.
    quick = post_checked(client, openapi, "/v1/rollouts", {"position": {"variant": "backgammon"}, "trials": 36}, 202)
    assert wait_for_rollout(client, quick["id"], seconds=30)["state"] == "done"


def test_the_job_time_limit_stops_an_engine_call_in_the_middle():
    store = JobStore(workers=1, time_limit=0.5)
    engine = tavla.Engine("backgammon", ply=0, threads=1)
    job = store.start("test", lambda progress: progress.engine(engine).rollout(tavla.Position.start(), trials=10**6, ply=2))
    started = time.monotonic()
    while not job.is_final and time.monotonic() - started < 10:
        time.sleep(0.01)
    assert job.state == "cancelled" and job.error == "ran past the job time limit"
    assert time.monotonic() - started < 2.0
    store.close()


@pytest.mark.parametrize("body,words", [
    ({"position": {"variant": "backgammon"}, "trials": 10**6}, "trials"),
    ({"position": {"variant": "backgammon"}, "ply": 3}, "ply"),
    ({"position": {"variant": "backgammon"}, "cube_ply": 3}, "cube_ply"),
    ({"position": {"variant": "backgammon"}, "trials": "9"}, "trials"),
    ({"xgid": "nonsense"}, "xgid"),
    ({"position": {"variant": "backgammon"}, "cube": {"value": 3}}, "cube"),
])
def test_bad_rollout_requests_are_refused_at_once(client, openapi, body, words):
    assert words in post_checked(client, openapi, "/v1/rollouts", body, 422)["error"]


def wait_for_rollout(client, job_id, seconds=120):
    return wait_for(client, job_id, seconds, jobs="/v1/rollouts")
