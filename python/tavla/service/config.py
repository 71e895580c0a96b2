"""Service settings: defaults, then environment variables, then command-line flags.

Every setting has an environment variable ``TAVLA_<NAME>`` so that a container or a
process manager can configure the service without flags.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from .._core import LIMITS


# The deepest search tavla.Engine runs (it refuses any deeper: the core's bound, src/limits.rs).
ENGINE_MAX_PLY = int(LIMITS["ply"])


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2  # engine threads; the Rust side releases the GIL
    queue: int = 16  # engine calls allowed to wait for a worker before answering 503
    default_ply: int = 1
    max_ply: int = 2
    time_limit: float = 10.0  # seconds per request for engine work
    max_body: int = 16 * 1024  # bytes; a position with options is well under 2 KiB
    max_game_body: int = 256 * 1024  # bytes for /v1/turn, whose body carries a game record (a long game ~20 KiB)
    max_top: int = 50  # most candidates a hint may ask for
    max_match_body: int = 5 * 1024 * 1024  # bytes for /v1/analyses, whose body carries a match file (4 MiB of text)
    job_workers: int = 1  # threads for jobs (match analyses), apart from the engine workers
    max_jobs: int = 8  # unfinished jobs at once; more answer 503
    job_time_limit: float = 1800.0  # seconds a job may run before it is stopped
    keep_alive: int = 5  # seconds an idle keep-alive connection stays open before the server closes it
    # Seconds a client has to send a whole request, headers and body, from its first byte: a client that
    # trickles it (slowloris) has its connection closed then, however steadily the bytes come.
    request_timeout: float = 30.0

    def check(self) -> "Settings":
        """Refuse settings that cannot work, naming the one at fault."""
        if not 0 <= self.max_ply <= ENGINE_MAX_PLY:
            raise ValueError(f"max ply must lie in 0..{ENGINE_MAX_PLY} (the engine searches at most "
                             f"{ENGINE_MAX_PLY} plies), not {self.max_ply}")
        if not 0 <= self.default_ply <= self.max_ply:
            raise ValueError(f"default ply {self.default_ply} must lie in 0..max ply {self.max_ply}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.queue < 0:
            raise ValueError(f"queue must be 0 or more, not {self.queue}")
        if not (math.isfinite(self.time_limit) and self.time_limit > 0):  # NaN compares False both ways
            raise ValueError(f"time limit must be positive and finite, not {self.time_limit}")
        if self.max_body < 256:
            raise ValueError(f"max body must be at least 256 bytes, not {self.max_body}")
        if self.max_game_body < 256:
            raise ValueError(f"max game body must be at least 256 bytes, not {self.max_game_body}")
        if self.max_match_body < 256:
            raise ValueError(f"max match body must be at least 256 bytes, not {self.max_match_body}")
        if self.job_workers < 1:
            raise ValueError(f"job workers must be at least 1, not {self.job_workers}")
        if self.max_jobs < 1:
            raise ValueError(f"max jobs must be at least 1, not {self.max_jobs}")
        if not (math.isfinite(self.job_time_limit) and self.job_time_limit > 0):
            raise ValueError(f"job time limit must be positive and finite, not {self.job_time_limit}")
        if not 1 <= self.keep_alive <= 3600:
            raise ValueError(f"keep alive must be 1 to 3600 seconds, not {self.keep_alive}")
        if not 1 <= self.request_timeout <= 3600:
            raise ValueError(f"request timeout must be 1 to 3600 seconds, not {self.request_timeout}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must lie in 0..65535, not {self.port}")
        return self


def env_name(field_name: str) -> str:
    return "TAVLA_" + field_name.upper()


def settings_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """Defaults overridden by any ``TAVLA_*`` variables present."""
    environ = os.environ if environ is None else environ
    changes = {}
    for f in fields(Settings):
        raw = environ.get(env_name(f.name))
        if raw is None or raw == "":
            continue
        kind = type(getattr(Settings, f.name))
        try:
            changes[f.name] = kind(raw)
        except ValueError:
            raise ValueError(f"{env_name(f.name)}={raw!r} is not a valid {kind.__name__}") from None
    return replace(Settings(), **changes).check()


def with_overrides(base: Settings, **overrides: Any) -> Settings:
    """``base`` with every override that is not None (flags left unset keep the environment's value)."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(base, **given).check()
