"""A bound on request bodies, checked before any route reads them."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException


class BodyTooLarge(HTTPException):
    """Raised while a body without Content-Length is read; an HTTPException so that the
    framework's body parsing passes it on instead of calling it a parse error."""

    def __init__(self, max_body: int):
        super().__init__(413, f"the request body is larger than {max_body} bytes")


class BodySizeLimit:
    """ASGI middleware: answers 413 for a body above ``max_body`` bytes.

    The declared Content-Length is checked first; a body sent without one (chunked) is
    counted as it arrives, so neither way lets a client make the service buffer more.
    """

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await self.refuse(send)
            return
        received = 0
        started = False

        async def counting_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge(self.max_body)
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
                await self.refuse(send)

    async def refuse(self, send):
        body = json.dumps({"error": f"the request body is larger than {self.max_body} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
