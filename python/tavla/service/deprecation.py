"""Marks the answers to requests that use a deprecated form, so that clients learn of it before it goes.

Today that is the ``mine``/``theirs`` position form: an answer to a request whose ``position`` (or
``new.position`` in /v1/turn) uses it carries ``Deprecation: true`` and a ``Warning`` header naming the
form to write instead (RFC 9745 and RFC 7234's warn-code 299).
"""

from __future__ import annotations

import json
from typing import Any

LEGACY_POSITION_WARNING = ('299 tavla "the mine/theirs position form is deprecated; write checkers and bar '
                           '(the JSON form tavla.formats.to_json writes)"')


def uses_legacy_position(body: Any) -> bool:
    if not isinstance(body, dict):
        return False
    places = [body.get("position"), (body.get("new") or {}).get("position") if isinstance(body.get("new"), dict) else None]
    # An answer's position sent back carries both forms: only the old form alone is the deprecated use.
    return any(isinstance(p, dict) and ("mine" in p or "theirs" in p) and "checkers" not in p for p in places)


class DeprecationHeaders:
    """ASGI middleware: reads along with the app (the body it receives is kept, up to the limit the body
    size middleware already enforces) and adds the deprecation headers to the answer's start."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []

        async def receive_and_keep():
            message = await receive()
            if message.get("type") == "http.request":
                chunks.append(message.get("body", b""))
            return message

        async def send_marked(message):
            body = b"".join(chunks) if message["type"] == "http.response.start" else b""
            if b'"mine"' in body or b'"theirs"' in body:  # the cheap test first: most bodies never parse twice
                try:
                    legacy = uses_legacy_position(json.loads(body))
                except ValueError:
                    legacy = False
                if legacy:
                    headers = list(message.get("headers", []))
                    headers += [(b"deprecation", b"true"), (b"warning", LEGACY_POSITION_WARNING.encode())]
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive_and_keep, send_marked)
