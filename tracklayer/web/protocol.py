"""The HTTP protocol ``tracklayer serve`` runs uvicorn with: uvicorn's own (httptools),
cheaper per answer in two ways that change nothing a client sees.

* An answer's head and body leave in one write: uvicorn writes the status line and
  headers as soon as the app starts its answer, and the body when it comes, two system
  calls and two TCP segments for every answer of a few hundred bytes (a game played flat
  out makes two answers an action). :class:`Corked` holds the head until the body comes,
  or until the event loop's turn ends (a stream's head goes out then, before its events;
  the events themselves go at once).
* The access log's lines that ``guard.HideSecrets`` leaves out (a game's listings and
  actions answered as asked) are not made at all (:class:`QuietAccess`): uvicorn makes a
  log record for every answer before any filter sees it.

Imported by uvicorn by name (``PROTOCOL``), in each worker."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, List, Optional

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .guard import left_out_of_access_log

PROTOCOL = "tracklayer.web.protocol:Protocol"


class Corked:
    """A transport on which an answer's head (its status line: ``HTTP/1.1 …``) waits for
    the next write, or for the end of the event loop's turn, and then leaves with it in
    one write; any other write leaves at once (a stream's events are not held back).
    Everything else is the transport's own; closing sends what waits first."""

    __slots__ = ("transport", "loop", "waiting")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self.loop = loop
        self.waiting: Optional[List[bytes]] = None

    def write(self, data: bytes) -> None:
        if self.waiting is not None:
            self.waiting.append(data)
            self.flush()
        elif data.startswith(b"HTTP/"):
            self.waiting = [data]
            self.loop.call_soon(self.flush)
        else:
            self.transport.write(data)

    def flush(self) -> None:
        waiting, self.waiting = self.waiting, None
        if waiting and not self.transport.is_closing():
            self.transport.write(waiting[0] if len(waiting) == 1 else b"".join(waiting))

    def close(self) -> None:
        self.flush()
        self.transport.close()

    # the rest as the transport does it (what uvicorn asks of one)
    def abort(self) -> None:
        self.transport.abort()

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self.transport.pause_reading()

    def resume_reading(self) -> None:
        self.transport.resume_reading()

    def is_reading(self) -> bool:
        return self.transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size()


class QuietAccess(logging.LoggerAdapter):
    """uvicorn's access logger, for the lines the log keeps: a line ``guard`` leaves out is
    dropped before a record of it is made (the rest is the logger's own)."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__(logger, None)

    def info(self, message, *args, **kwargs) -> None:
        if not left_out_of_access_log(args):
            self.logger.info(message, *args, **kwargs)


class Protocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with :class:`Corked` writes and :class:`QuietAccess`."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.access_logger = QuietAccess(self.access_logger)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(Corked(transport, self.loop))
