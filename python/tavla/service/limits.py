"""A bound on request bodies, checked before any route reads them."""

from __future__ import annotations

import json
from typing import Mapping, Optional

from starlette.exceptions import HTTPException


class BodyTooLarge(HTTPException):
    """Raised while a body without Content-Length is read; an HTTPException so that the
    framework's body parsing passes it on instead of calling it a parse error."""

    def __init__(self, max_body: int):
        super().__init__(413, f"the request body is larger than {max_body} bytes")


class BodySizeLimit:
    """ASGI middleware: answers 413 for a body above ``max_body`` bytes (``larger`` maps paths allowed a
    larger body to their limit).

    The declared Content-Length is checked first; a body sent without one (chunked) is
    counted as it arrives, so neither way lets a client make the service buffer more.
    """

    def __init__(self, app, max_body: int, larger: Optional[Mapping[str, int]] = None):
        self.app = app
        self.max_body = max_body
        self.larger = dict(larger or {})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.max_body)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self.refuse(send, limit)
            return
        received = 0
        started = False

        async def counting_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self.refuse(send, limit)

    async def refuse(self, send, limit: int):
        body = json.dumps({"error": f"the request body is larger than {limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
