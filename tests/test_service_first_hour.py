"""The hint service as a newcomer meets it: docs that work offline, strict JSON types, a 415 for a
body that is not JSON, a bounded --max-ply, the banner once the port is bound, and the access log."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time

import httpx
import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

import tavla  # noqa: E402
from serving import check_against_schema, free_port, running  # noqa: E402
from tavla.service import Settings, create_app  # noqa: E402
from tavla.service import app as app_module  # noqa: E402
from tavla.service.config import ENGINE_MAX_PLY, settings_from_env, with_overrides  # noqa: E402


@pytest.fixture(scope="module")
def base():
    with running(create_app(Settings())) as url:
        yield url


@pytest.fixture(scope="module")
def client(base):
    with httpx.Client(base_url=base, timeout=30) as c:
        yield c


START = {"position": {"variant": "backgammon"}}


# -- strict JSON types ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "path, body, where",
    [
        ("/v1/moves", {**START, "dice": [True, 1]}, "dice.0"),
        ("/v1/moves", {**START, "dice": ["6", "5"]}, "dice.0"),
        ("/v1/moves", {**START, "dice": [6.0, 5]}, "dice.0"),
        ("/v1/hint", {**START, "dice": [6, 5], "ply": "2"}, "ply"),
        ("/v1/hint", {**START, "dice": [6, 5], "ply": True}, "ply"),
        ("/v1/hint", {**START, "dice": [6, 5], "top": "3"}, "top"),
        ("/v1/evaluate", {**START, "ply": False}, "ply"),
        ("/v1/cube", {**START, "cube": {"value": "2", "owner": "me"}}, "cube.value"),
        ("/v1/cube", {**START, "cube": {"value": 2, "owner": "me", "jacoby": 1}}, "cube.jacoby"),
        ("/v1/cascade-step", {"position": {"variant": "gulbara"}, "die": "3"}, "die"),
        ("/v1/turn", {"new": START, "action": {"roll": [True, 1]}}, "action.roll.0"),
        ("/v1/turn", {"new": {**START, "turn": "1"}}, "new.turn"),
        ("/v1/position", {"position": {"variant": "backgammon", "mine": ["0"] * 25, "theirs": [0] * 25}},
         "position.mine.0"),
    ],
)
def test_numbers_and_booleans_must_be_json_numbers_and_booleans(client, openapi, path, body, where):
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    check_against_schema(openapi, "post", path, r)
    assert r.json()["error"].startswith(where)


def test_proper_json_types_are_still_accepted(client, openapi):
    r = client.post("/v1/moves", json={**START, "dice": [6, 5]})
    assert r.status_code == 200 and r.json()["dice"] == [6, 5]
    r = client.post("/v1/position", json={"position": {"variant": "nardy", "rules": {"koks": True}}})
    assert r.status_code == 200, r.text
    r = client.post("/v1/cube", json={**START, "cube": {"value": 2, "owner": "me", "jacoby": False}})
    assert r.status_code == 200, r.text


# -- 415 for a body that is not JSON -------------------------------------------------------------

@pytest.mark.parametrize("headers", [{}, {"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"}])
def test_a_body_not_sent_as_json_is_415(client, openapi, headers):
    r = client.post("/v1/moves", content=b'{"position": {}, "dice": [6, 5]}', headers=headers)
    assert r.status_code == 415, r.text
    check_against_schema(openapi, "post", "/v1/moves", r)
    assert "Content-Type: application/json" in r.json()["error"]


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_json_content_types_are_accepted(client, content_type):
    r = client.post("/v1/moves", content=b'{"position": {}, "dice": [6, 5]}', headers={"content-type": content_type})
    assert r.status_code == 200, r.text


def test_unknown_routes_stay_404(client):
    assert client.post("/v1/nothing", content=b"x", headers={"content-type": "text/plain"}).status_code == 404


def test_every_post_route_declares_415(openapi):
    for path, methods in openapi["paths"].items():
        if "post" in methods:
            assert "415" in methods["post"]["responses"], path


# -- /v1/docs without a network --------------------------------------------------------------------

def test_docs_load_swagger_ui_from_the_service_itself(client):
    pytest.importorskip("swagger_ui_bundle", reason="the docs need swagger-ui-bundle-v2 (the serve extra)")
    page = client.get("/v1/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text), "the docs page loads something from outside"
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        r = client.get(asset)
        assert r.status_code == 200 and r.content, asset
    assert "/v1/openapi.json" in page.text


def test_docs_swagger_ui_reads_openapi_3_1():
    # FastAPI writes OpenAPI 3.1, which Swagger UI renders from version 5 on (4.x shows an error).
    files = app_module.swagger_ui_files()
    if files is None:
        pytest.skip("swagger-ui-bundle-v2 is not installed")
    version = re.search(r"swagger-ui-(\d+)\.", str(files))
    assert version is None or int(version.group(1)) >= 5, files


def test_docs_without_the_package_say_what_to_install(monkeypatch):
    monkeypatch.setattr(app_module, "swagger_ui_files", lambda: None)
    with running(create_app(Settings())) as url:
        page = httpx.get(url + "/v1/docs", timeout=10)
    assert page.status_code == 200
    assert "pip install swagger-ui-bundle-v2" in page.text and "/v1/openapi.json" in page.text
    assert "cdn" not in page.text.lower()


# -- settings: --max-ply bounded by the engine --------------------------------------------------------

def test_the_engine_stops_at_engine_max_ply():
    tavla.Engine("backgammon", ENGINE_MAX_PLY)
    with pytest.raises(ValueError):
        tavla.Engine("backgammon", ENGINE_MAX_PLY + 1)


@pytest.mark.parametrize("max_ply", [ENGINE_MAX_PLY + 1, 9, -1])
def test_max_ply_is_bounded(max_ply):
    with pytest.raises(ValueError, match="max ply"):
        with_overrides(Settings(), max_ply=max_ply, default_ply=0)
    with pytest.raises(ValueError, match="max ply"):
        settings_from_env({"TAVLA_MAX_PLY": str(max_ply), "TAVLA_DEFAULT_PLY": "0"})
    assert with_overrides(Settings(), max_ply=ENGINE_MAX_PLY).max_ply == ENGINE_MAX_PLY


def test_serve_refuses_max_ply_9():
    result = subprocess.run([sys.executable, "-m", "tavla", "serve", "--max-ply", "9"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"max ply must lie in 0..{ENGINE_MAX_PLY}" in result.stderr


# -- tavla serve: the banner once bound, the access log -------------------------------------------------

def start_serve(*args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVLA_")}
    return subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--workers", "1", *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def read_banner(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline()
    assert line.startswith("tavla serve: http://"), line
    return line


def stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    return proc.communicate(timeout=20)[0]


def test_the_banner_comes_once_the_port_is_bound_and_names_it():
    proc = start_serve("--port", "0")
    try:
        banner = read_banner(proc)
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", banner).group(1))
        assert port != 0
        # Bound already: the service answers at once on the port the banner names.
        assert httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=5).status_code == 200
    finally:
        stop(proc)


def test_no_banner_when_the_port_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = start_serve("--port", str(port))
        out = proc.communicate(timeout=60)[0]
    assert proc.returncode != 0
    assert "tavla serve: http://" not in out
    assert "address already in use" in out.lower() or "error" in out.lower()
    assert "Traceback" not in out


def request_and_stop(*args: str) -> str:
    proc = start_serve("--port", str(free_port()), *args)
    try:
        banner = read_banner(proc)
        url = re.search(r"(http://\S+/)", banner).group(1)
        assert httpx.get(url + "v1/health", timeout=5).status_code == 200
        time.sleep(0.3)
    finally:
        out = stop(proc)
    return out


def test_requests_are_logged():
    out = request_and_stop()
    assert re.search(r'"GET /v1/health HTTP/1\.1" 200', out), out


@pytest.mark.parametrize("flag", ["--quiet", "--no-access-log"])
def test_the_access_log_can_be_silenced(flag):
    out = request_and_stop(flag)
    assert "/v1/health" not in out, out
