"""JSON as the app answers with it: compact UTF-8 (what Starlette's ``JSONResponse``
writes), by orjson when it is installed (the ``web`` extra installs it): the same text for
the app's plain data, written many times faster (a game played flat out writes a listing
and an entry an action). What orjson does not write (an integer beyond 64 bits, a type it
does not know) is written by the standard library, as before."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse

try:
    import orjson
except ImportError:                     # the standard library's, slower
    orjson = None


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON text, UTF-8."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            pass
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


async def send_json(send, content: Any, status: int = 200) -> None:
    """Answer an ASGI request with ``content`` as JSON (the two messages a
    :class:`Answer` sends, without building one: the play path answers two requests an
    action)."""
    body = dumps(content)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()),
                            (b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


class Answer(JSONResponse):
    """A JSON answer written by :func:`dumps`."""

    def render(self, content: Any) -> bytes:
        return dumps(content)
