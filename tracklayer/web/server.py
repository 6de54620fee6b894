"""``tracklayer serve``: the web app on uvicorn (this module imports the web libraries only
when called, so that the rest of the command line works without them)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional


def default_db() -> str:
    return f"sqlite:///{Path('tracklayer.db').resolve()}"


def redis_problem(url: str) -> Optional[str]:
    """Why Redis at ``url`` cannot carry live updates (None if it answers)."""
    try:
        import redis
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except ImportError as e:
        return f"the redis package is missing ({e})"
    except Exception as e:          # a bad URL, no server, refused, a wrong password …
        return f"{type(e).__name__}: {e}"
    return None


def shown(url: str) -> str:
    """A URL without its password."""
    return re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1…@", url)


def serve(host: str = "127.0.0.1", port: int = 8000, db: Optional[str] = None,
          workers: int = 1, redis_url: Optional[str] = None,
          games_per_minute: Optional[float] = None) -> int:
    try:
        import uvicorn
        from .db import Store
    except ImportError as e:
        print(f"tracklayer serve needs the web extra ({e}): pip install 'tracklayer[web]'",
              file=sys.stderr)
        return 2
    db = db or default_db()
    if workers > 1 and not redis_url:
        print("tracklayer serve: several workers share live updates through Redis: "
              "give --redis URL (or one worker)", file=sys.stderr)
        return 2
    if workers > 1 and db.startswith("sqlite") and ":memory:" in db:
        print("tracklayer serve: workers cannot share an in-memory database", file=sys.stderr)
        return 2
    if redis_url:
        problem = redis_problem(redis_url)
        if problem:
            print(f"tracklayer serve: cannot reach Redis at {shown(redis_url)}: {problem}",
                  file=sys.stderr)
            return 2
    from sqlalchemy.exc import SQLAlchemyError
    try:
        Store(db).dispose()              # migrate once, before any worker starts
    except (SQLAlchemyError, ImportError, ValueError) as e:
        print(f"tracklayer serve: cannot use the database {shown(db)}: {e}", file=sys.stderr)
        return 2
    os.environ["TRACKLAYER_DB"] = db
    if redis_url:
        os.environ["TRACKLAYER_REDIS"] = redis_url
    if games_per_minute is not None:
        os.environ["TRACKLAYER_GAMES_PER_MINUTE"] = str(games_per_minute)
    print(f"tracklayer: serving on http://{host}:{port}/ (database {shown(db)})",
          file=sys.stderr)
    uvicorn.run("tracklayer.web.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, log_level="info", timeout_graceful_shutdown=3,
                http=http_protocol())
    return 0


def http_protocol() -> str:
    """The HTTP protocol uvicorn runs: ours (``web.protocol``) on httptools, else
    uvicorn's choice."""
    try:
        from .protocol import PROTOCOL
    except ImportError:
        return "auto"
    return PROTOCOL


def free_port() -> int:
    """A local port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving_apart(db: str, workers: int = 1, redis_url: Optional[str] = None,
                  wait_s: float = 20.0, extra: tuple = ()) -> Iterator[str]:
    """``tracklayer serve`` in a process of its own on a free local port (for tests and
    benchmarks): the base URL, once the app answers; the server stops afterwards."""
    port = free_port()
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "tracklayer", "serve", "--port", str(port), "--db", db,
           "--workers", str(workers)] + (["--redis", redis_url] if redis_url else []) + \
        list(extra)
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(base + "/", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(20)
