"""The last line: an unexpected error becomes a plain 500 answer, its trace goes to the log.

Done as middleware rather than an exception handler because the framework's handler for
``Exception`` re-raises after answering, which makes the server drop the client's
keep-alive connection; here the error ends with the answer.
"""

from __future__ import annotations

import json
import logging

log = logging.getLogger("tavla.service")

INTERNAL = json.dumps({"error": "internal error; the service log has the details"}).encode()


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
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out; only closing the connection is honest now
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(INTERNAL)).encode())]})
            await send({"type": "http.response.body", "body": INTERNAL})
