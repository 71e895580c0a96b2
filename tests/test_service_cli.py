"""``tavla serve`` as a user starts it: a subprocess configured by flags and environment."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

pytest.importorskip("fastapi", reason="the service needs the serve extra (fastapi, uvicorn)")

from serving import free_port  # noqa: E402


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 90) -> httpx.Response:
    # The service builds the bear-off tables before it listens: a couple of seconds, far more on a busy machine.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"tavla serve exited: {proc.communicate()[0]}")
        try:
            return httpx.get(url, timeout=1)
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("tavla serve did not answer in time")


def test_serve_takes_flags_over_environment():
    port = free_port()
    env = dict(os.environ, TAVLA_PORT="1", TAVLA_MAX_PLY="3", TAVLA_DEFAULT_PLY="2", TAVLA_TIME_LIMIT="7.5")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        version = wait_for(f"http://127.0.0.1:{port}/v1/version", proc).json()
        assert (version["max_ply"], version["default_ply"], version["time_limit_s"]) == (3, 2, 7.5)
        health = httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=5).json()
        assert health["workers"] == 1
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
    assert f"http://127.0.0.1:{port}/" in out


def test_serve_refuses_bad_settings_with_a_message():
    env = dict(os.environ, TAVLA_DEFAULT_PLY="5")
    result = subprocess.run([sys.executable, "-m", "tavla", "serve", "--max-ply", "2"], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "default ply 5 must lie in 0..max ply 2" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("flag,value", [("--time-limit", "inf"), ("--time-limit", "nan"), ("--job-time-limit", "nan")])
def test_serve_refuses_a_time_limit_that_is_not_a_finite_number(flag, value):
    # Before: --time-limit inf ended in an OverflowError traceback, nan in "cannot convert float NaN to
    # integer", and --job-time-limit nan started a service whose jobs never ran.
    result = subprocess.run([sys.executable, "-m", "tavla", "serve", "--port", str(free_port()), flag, value],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert f"time limit must be positive and finite, not {value}" in result.stderr
    assert "Traceback" not in result.stderr
