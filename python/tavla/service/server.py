"""Running the service under uvicorn, with settings from the environment and flags."""

from __future__ import annotations

import argparse

import uvicorn

from .app import create_app
from .config import settings_from_env, with_overrides


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
    )
    print(f"tavla serve: http://{settings.host}:{settings.port}/ (API under /v1, schema at /v1/openapi.json)", flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                server_header=False)
    return 0
