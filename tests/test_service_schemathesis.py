"""Property-based checks of the service against its own OpenAPI schema (schemathesis): generated
requests, valid and invalid, sent to a real server on loopback; every answer must be declared in the
schema and match it, and none may be a server error."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")
schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from serving import running  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402

ROUTES = ["/v1/health", "/v1/version", "/v1/moves", "/v1/position", "/v1/cascade-step", "/v1/hint",
          "/v1/evaluate", "/v1/engine-move", "/v1/handover", "/v1/cube", "/v1/turn", "/v1/match-turn",
          "/v1/analyses", "/v1/analyses/{job_id}", "/v1/rollouts", "/v1/rollouts/{job_id}"]


@pytest.fixture(scope="module")
def service():
    # max_ply 1 and a short time limit keep generated engine requests quick.
    with running(create_app(Settings(max_ply=1, default_ply=0, time_limit=5))) as url:
        yield url, schemathesis.openapi.from_url(url + "/v1/openapi.json")


def test_the_schema_names_every_route(service):
    _, schema = service
    paths = {result.ok().path for result in schema.get_all_operations()}
    assert paths == set(ROUTES)


@pytest.mark.parametrize("path", ROUTES)
def test_answers_conform_to_the_schema(service, path):
    url, schema = service
    operation = next(r.ok() for r in schema.get_all_operations() if r.ok().path == path)
    # A schema cannot say everything that makes a position possible (15 checkers in all, no
    # two players on one point, exactly one of position/xgid/gnubg_id), so schema-valid requests
    # may rightly be refused with 422; every other check applies.
    excluded = [schemathesis.checks.positive_data_acceptance]

    @given(case=operation.as_strategy())
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def check(case):
        case.call_and_validate(base_url=url, excluded_checks=excluded)

    check()
