"""What the web tests share: the databases to run on (SQLite always; PostgreSQL when a
server answers), and a real uvicorn server in a thread for streams and browsers."""

from __future__ import annotations

import os
import threading
import time
import uuid
import pytest

PG_URL = os.environ.get("TRACKLAYER_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TRACKLAYER_TEST_REDIS", "redis://127.0.0.1:6379/0")
from conftest import FIXTURES  # noqa: E402  (../shared, or $TRACKLAYER_SHARED)
from tracklayer.web.server import free_port  # noqa: E402


def web_missing() -> str:
    try:
        import alembic, fastapi, sqlalchemy, sse_starlette, uvicorn  # noqa: F401
    except ImportError as e:
        return f"the web extra is not installed ({e}); pip install '.[web,test]'"
    return ""


def postgres_url() -> str:
    """A fresh schema-less database URL on the PostgreSQL server, or skip."""
    try:
        import psycopg
        with psycopg.connect(PG_URL.replace("postgresql://", "postgresql://", 1),
                             connect_timeout=2, autocommit=True) as conn:
            name = f"tracklayer_test_{uuid.uuid4().hex[:10]}"
            conn.execute(f"CREATE DATABASE {name}")
    except Exception as e:      # no driver, no server, no right to create
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {e}")
    return PG_URL.rsplit("/", 1)[0] + "/" + name


def drop_postgres(url: str) -> None:
    import psycopg
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def database(kind: str, sqlite_file):
    """A database URL of ``kind`` ("sqlite": the file given; "postgresql": a fresh
    database, dropped afterwards, or skip), for a fixture to yield from."""
    if kind == "sqlite":
        yield f"sqlite:///{sqlite_file}"
        return
    url = postgres_url()
    yield url
    drop_postgres(url)


def redis_or_skip() -> str:
    try:
        import redis
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as e:
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {e}")
    return REDIS_URL


class Server:
    """An app served by uvicorn in a thread, on a free port (``config``: uvicorn's settings
    over the defaults here, e.g. ``http`` for the protocol, ``log_level``, ``access_log``)."""

    def __init__(self, app, **config) -> None:
        import uvicorn
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        settings = dict(log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
        settings.update(config)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    **settings))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class EventReader:
    """Reads a Server-Sent Events stream in a thread; ``take(n)`` waits for n events."""

    def __init__(self, url: str, headers=None) -> None:
        import queue
        self.url, self.headers = url, headers or {}
        self.events: "queue.Queue" = queue.Queue()
        self.connected = threading.Event()
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.connected.wait(10), "the event stream did not open"

    def _run(self) -> None:
        try:
            self._read()
        except Exception:       # the stream closed under the reader, or the server stopped
            self.connected.set()

    def _read(self) -> None:
        import httpx
        with httpx.Client(timeout=None) as client:
            with client.stream("GET", self.url, headers=self.headers) as r:
                self.status, self.response = r.status_code, r
                self.connected.set()
                event = {}
                for line in r.iter_lines():
                    if self.closed:
                        return
                    if not line:
                        if "data" in event:
                            self.events.put(event)
                        event = {}
                    elif not line.startswith(":") and ":" in line:
                        key, _, value = line.partition(":")
                        event[key] = value[1:] if value.startswith(" ") else value

    def take(self, n: int, timeout: float = 10) -> list:
        import json
        out = []
        deadline = time.time() + timeout
        while len(out) < n:
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"got {len(out)} of {n} events in {timeout} s")
            import queue
            try:
                e = self.events.get(timeout=left)
            except queue.Empty:
                continue
            out.append((int(e["id"]), json.loads(e["data"])))
        return out

    def close(self) -> None:
        self.closed = True
        try:
            self.response.close()
        except Exception:       # closing from another thread may interrupt the reader
            pass


def recorded(*parts: str) -> dict:
    """A shared game export by its path under ../shared/fixtures (the test skips without it)."""
    import json
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return json.loads(path.read_text())


def auth(token: str) -> dict:
    """The header that presents a seat's (or the creator's) token."""
    return {"Authorization": f"Bearer {token}"}
