"""Helpers for the service tests: a real uvicorn server on a free loopback port, in a thread,
and checking answers against the service's own OpenAPI schema."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import httpx
import jsonschema
import pytest
import uvicorn


def arrays(points: dict) -> list:
    """A side's 25 counts (points 1 to 24, then the bar) from {point: checkers}."""
    a = [0] * 25
    for p, n in points.items():
        a[p - 1] = n
    return a


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(app: Any) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 until the block ends; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    # The app builds the bear-off tables before it listens: a couple of seconds, far more on a busy machine.
    deadline = time.monotonic() + 90
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def http_client(app: Any, timeout: float = 60) -> Iterator[httpx.Client]:
    """An HTTP client of ``app`` served on loopback (as ``running``)."""
    with running(app) as url, httpx.Client(base_url=url, timeout=timeout) as client:
        yield client


def client_fixture(settings: Any = None, timeout: float = 60) -> Any:
    """A module's ``client`` fixture (``client = client_fixture(Settings(...))``): an HTTP client of the
    service made with ``settings`` (the defaults if None), served on loopback for the module's tests."""

    @pytest.fixture(scope="module")
    def client() -> Iterator[httpx.Client]:
        from tavla.service import create_app

        with http_client(create_app(settings), timeout=timeout) as c:
            yield c

    return client


def post_checked(client: httpx.Client, openapi: dict, path: str, body: Any, status: int = 200) -> Any:
    """POST ``body``; the answer must have ``status`` and match the published schema. Answers its JSON."""
    return post_checked_response(client, openapi, path, body, status).json()


def post_checked_response(client: httpx.Client, openapi: dict, path: str, body: Any, status: int = 200) -> httpx.Response:
    """``post_checked``, answering the whole response (its headers too)."""
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    check_against_schema(openapi, "post", path, r)
    return r


def response_schema(openapi: dict, path: str, method: str, status: int) -> dict:
    responses = openapi["paths"][path][method.lower()]["responses"]
    assert str(status) in responses, f"{method} {path} answered {status}, which the schema does not declare"
    return responses[str(status)]["content"]["application/json"]["schema"]


def check_against_schema(openapi: dict, method: str, path: str, response: httpx.Response) -> None:
    """The answer's body must validate against the schema the service publishes for it."""
    schema = dict(response_schema(openapi, path, method, response.status_code))
    schema["components"] = openapi["components"]
    jsonschema.Draft202012Validator(schema).validate(response.json())
