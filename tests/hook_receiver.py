"""A local HTTP server that takes webhook POSTs (JSON) and keeps them, for the turn-alert
tests; ``delay`` makes it answer slowly, ``status`` choose its answer."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List


class Receiver:
    def __init__(self, delay: float = 0.0, status: int = 200) -> None:
        self.posts: List[dict] = []
        self.arrived = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                time.sleep(delay)
                with owner.arrived:
                    owner.posts.append({"path": self.path,
                                        "type": self.headers.get("Content-Type"),
                                        "json": json.loads(body)})
                    owner.arrived.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait(self, n: int, timeout: float = 10.0) -> List[dict]:
        """The first ``n`` posts, waiting for them (AssertionError if they do not come)."""
        deadline = time.time() + timeout
        with self.arrived:
            while len(self.posts) < n:
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"{len(self.posts)} of {n} webhook posts came")
                self.arrived.wait(left)
            return [p["json"] for p in self.posts[:n]]
