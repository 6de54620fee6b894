"""The app: ``create_app(database_url, redis_url=None)`` → a FastAPI application whose
database schema is migrated at start, with the API, the pages and the packaged JavaScript,
behind the guard (body and rate limits, headers: see guard).

``app_from_env()`` is the factory ``tracklayer serve`` hands uvicorn (so that each worker
builds its own): it reads ``TRACKLAYER_DB``, ``TRACKLAYER_REDIS`` and
``TRACKLAYER_GAMES_PER_MINUTE``."""

from __future__ import annotations

import gc
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Optional

import anyio.to_thread
from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.exc import OperationalError
from fastapi.staticfiles import StaticFiles

from . import actions_pages, api, archive_pages, guard, pages, rules_version, seats
from .play_path import PlayPath
from .db import Store
from .events import make_broker
from .loop_reads import make_loop_reader
from .service import Refusal, Service
from .webhooks import Notifier

HERE = Path(__file__).resolve().parent
DEFAULT_DB = "sqlite:///tracklayer.db"
REQUEST_THREADS = 200            # requests running at once in threads (anyio's default: 40)
# the cyclic collector's youngest generation is collected once this many more objects
# (those that may hold others) were made than freed (Python's default: 700): an action
# makes thousands, so the default collected every ~15 actions of a game played flat out,
# and the next generation (a few ms, on the event loop) every ~150: 3-5% of the server's
# CPU in the web benchmark, a sixth of it at 10000
GC_YOUNG = 10000


def create_app(database_url: str = DEFAULT_DB, redis_url: Optional[str] = None,
               background_bots: bool = True, limits: guard.Limits = guard.Limits()) -> FastAPI:
    store = Store(database_url)
    broker = make_broker(redis_url, store.installation())

    def publish(game_id: int, number: int, entry: dict, text: Optional[str] = None) -> None:
        broker.publish(game_id, number, entry, text)
        notifier.entry_stored(game_id, number, entry)       # turn alerts, off this path

    service = Service(store, publish, background_bots, shared=redis_url is not None)
    reader = make_loop_reader(database_url) if service.shared else None
    notifier = Notifier(service)

    @asynccontextmanager
    async def lifespan(_app):
        # an action's request holds its thread while its entry is committed (an fsync):
        # enough threads that those waiting do not hold up the requests behind them
        anyio.to_thread.current_default_thread_limiter().total_tokens = REQUEST_THREADS
        await run_in_threadpool(rules_version.warm)     # no request waits for it
        await broker.start()
        try:
            yield
        finally:
            notifier.stop()
            if reader is not None:
                await reader.close()
            await broker.stop()
            store.dispose()

    # tracklayer reports to no OpenTelemetry: FastAPI's own bridge to it asked the
    # environment three times a request whether anything listened
    app = FastAPI(title="tracklayer", lifespan=lifespan,
                  telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.store, app.state.broker, app.state.service = store, broker, service
    app.state.notifier = notifier
    app.state.limits = limits
    app.add_exception_handler(Refusal, api.refusal_handler)
    app.add_exception_handler(OperationalError, api.database_away)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(seats.router)
    app.include_router(actions_pages.router)
    app.include_router(archive_pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(PlayPath, service=service, reader=reader)      # inside the guard
    app.add_middleware(guard.Guard, limits=limits)
    guard.hide_secrets_in_access_log()
    return app


def app_from_env() -> FastAPI:
    """The app of ``tracklayer serve``'s worker (this process: see ``GC_YOUNG``)."""
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    rate = os.environ.get("TRACKLAYER_GAMES_PER_MINUTE")
    limits = guard.Limits(games_per_minute=float(rate)) if rate else guard.Limits()
    return create_app(os.environ.get("TRACKLAYER_DB", DEFAULT_DB),
                      os.environ.get("TRACKLAYER_REDIS") or None, limits=limits)
