"""Running the service under uvicorn, with settings from the environment and flags."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Optional

import uvicorn

from .app import create_app
from .config import Settings, settings_from_env, with_overrides


class BannerServer(uvicorn.Server):
    """A uvicorn server that prints where it listens once the socket is bound (not before: a port
    already in use gets uvicorn's error and no banner), with the port actually bound (for port 0)."""

    def __init__(self, config: uvicorn.Config, banner_host: str) -> None:
        super().__init__(config)
        self.banner_host = banner_host

    def bound_port(self) -> Optional[int]:
        for server in getattr(self, "servers", None) or []:
            for sock in getattr(server, "sockets", None) or []:
                name = sock.getsockname()
                if isinstance(name, tuple) and len(name) >= 2:
                    return int(name[1])
        return None

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            port = self.bound_port() or self.config.port
            host = f"[{self.banner_host}]" if ":" in self.banner_host else self.banner_host
            print(f"tavla serve: http://{host}:{port}/ (API under /v1, docs at /v1/docs, "
                  f"schema at /v1/openapi.json)", flush=True)


def server_for(settings: Settings, access_log: bool = True) -> BannerServer:
    """The uvicorn server of the service: errors and warnings logged, and one access-log line per
    request unless ``access_log`` is False."""
    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                            access_log=access_log, server_header=False)
    if access_log:
        # log_level "warning" keeps uvicorn's start-up chatter out; the access log logs at INFO.
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    return BannerServer(config, settings.host)


def serve(args: argparse.Namespace) -> int:
    settings = with_overrides(
        settings_from_env(),
        host=args.host,
        port=args.port,
        workers=args.workers,
        queue=args.queue,
        default_ply=args.default_ply,
        max_ply=args.max_ply,
        time_limit=args.time_limit,
        max_body=args.max_body,
        max_game_body=args.max_game_body,
    )
    server = server_for(settings, access_log=not getattr(args, "quiet", False))
    try:
        server.run()
    except SystemExit as e:  # uvicorn exits when it cannot bind; it has logged why
        return e.code if isinstance(e.code, int) else 1
    except KeyboardInterrupt:  # Ctrl-C is how the service is stopped: uvicorn has shut down cleanly
        return 0
    if not server.started:
        print(f"tavla serve: could not listen on {settings.host}:{settings.port}", file=sys.stderr)
        return 1
    return 0
