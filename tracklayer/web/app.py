"""The app: ``create_app(database_url, redis_url=None)`` → a FastAPI application whose
database schema is migrated at start, with the API, the pages and the packaged JavaScript.

``app_from_env()`` is the factory ``tracklayer serve`` hands uvicorn (so that each worker
builds its own): it reads ``TRACKLAYER_DB`` and ``TRACKLAYER_REDIS``."""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Optional

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from . import actions_pages, api, pages, seats
from .db import Store
from .events import make_broker
from .service import Refusal, Service
from .webhooks import Notifier

HERE = Path(__file__).resolve().parent
DEFAULT_DB = "sqlite:///tracklayer.db"


def create_app(database_url: str = DEFAULT_DB, redis_url: Optional[str] = None,
               background_bots: bool = True) -> FastAPI:
    store = Store(database_url)
    broker = make_broker(redis_url)

    def publish(game_id: int, number: int, entry: dict) -> None:
        broker.publish(game_id, number, entry)
        notifier.entry_stored(game_id, number, entry)       # turn alerts, off this path

    service = Service(store, publish, background_bots)
    notifier = Notifier(service)

    @asynccontextmanager
    async def lifespan(_app):
        await broker.start()
        try:
            yield
        finally:
            notifier.stop()
            await broker.stop()
            store.dispose()

    app = FastAPI(title="tracklayer", lifespan=lifespan)
    app.state.store, app.state.broker, app.state.service = store, broker, service
    app.state.notifier = notifier
    app.add_exception_handler(Refusal, api.refusal_handler)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(seats.router)
    app.include_router(actions_pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app


def app_from_env() -> FastAPI:
    return create_app(os.environ.get("TRACKLAYER_DB", DEFAULT_DB),
                      os.environ.get("TRACKLAYER_REDIS") or None)
