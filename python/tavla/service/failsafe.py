"""The last line: an unexpected error becomes a plain 500 answer, its trace goes to the log.

Done as middleware rather than an exception handler because the framework's handler for
``Exception`` re-raises after answering, which makes the server drop the client's
keep-alive connection; here the error ends with the answer.

A request still unfinished when a stop's grace runs out (a client that stalls while sending its
body) is cancelled by the server; it is answered 503 "stopping" (the server then closes the
connection), where the server would log the cancellation as an error and answer 500.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Sequence

log = logging.getLogger("tavla.service")

INTERNAL = json.dumps({"error": "internal error; the service log has the details"}).encode()
STOPPING = json.dumps({"error": "the service is stopping; retry shortly"}).encode()


class Failsafe:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except asyncio.CancelledError:
            if started:
                raise
            log.warning("stopping: %s %s was still unfinished", scope.get("method"), scope.get("path"))
            await answer(send, 503, STOPPING, [(b"retry-after", b"1"), (b"connection", b"close")])
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out; only closing the connection is honest now
            await answer(send, 500, INTERNAL)


async def answer(send, status: int, body: bytes, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})
