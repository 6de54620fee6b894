"""The HTTP protocol ``tracklayer serve`` runs (web.protocol): an answer's head and body in
one write, and no access-log record made for a game's listing or action answered."""

from __future__ import annotations

import asyncio
import logging
import socket

import httpx
import pytest

from web_support import EventReader, Server, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


class FakeTransport:
    def __init__(self) -> None:
        self.writes, self.closed = [], False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name, default=None):
        return ("127.0.0.1", 1) if name == "peername" else default


def test_corked_writes_join_the_head_to_the_body_and_send_a_lone_head_at_the_turns_end():
    from tracklayer.web.protocol import Corked
    loop = asyncio.new_event_loop()
    try:
        raw = FakeTransport()
        corked = Corked(raw, loop)
        corked.write(b"HTTP/1.1 200 OK\r\n\r\n")
        assert raw.writes == []
        corked.write(b"BODY")
        assert raw.writes == [b"HTTP/1.1 200 OK\r\n\r\nBODY"]
        corked.write(b"HTTP/1.1 200 stream\r\n\r\n")     # nothing follows in this turn
        loop.run_until_complete(asyncio.sleep(0))
        assert raw.writes[-1] == b"HTTP/1.1 200 stream\r\n\r\n"
        corked.write(b"5\r\nevent\r\n")                  # a stream's event: at once
        assert raw.writes[-1] == b"5\r\nevent\r\n"
        corked.write(b"HTTP/1.1 404 Not Found\r\n\r\n")
        corked.close()                          # what waits goes first
        assert raw.writes[-1] == b"HTTP/1.1 404 Not Found\r\n\r\n" and raw.closed
        assert corked.get_extra_info("peername") == ("127.0.0.1", 1)
        loop.run_until_complete(asyncio.sleep(0))
        assert len(raw.writes) == 4             # each sent once
    finally:
        loop.close()


def test_the_quiet_access_log_makes_no_record_of_play_answered():
    from tracklayer.web.protocol import QuietAccess
    made = []

    class Keep(logging.Logger):
        def info(self, message, *args, **kw) -> None:
            made.append(message % args)
    quiet = QuietAccess(Keep("t"))
    line = '%s - "%s %s HTTP/%s" %d'
    quiet.info(line, "1.2.3.4:5", "GET", "/api/games/7/legal", "1.1", 200)
    quiet.info(line, "1.2.3.4:5", "POST", "/api/games/7/actions", "1.1", 201)
    quiet.info(line, "1.2.3.4:5", "POST", "/api/games/7/actions", "1.1", 409)
    quiet.info(line, "1.2.3.4:5", "GET", "/api/games/7", "1.1", 200)
    assert made == ['1.2.3.4:5 - "POST /api/games/7/actions HTTP/1.1" 409',
                    '1.2.3.4:5 - "GET /api/games/7 HTTP/1.1" 200']


def test_the_app_on_its_protocol_answers_plain_head_and_streamed_requests(tmp_path):
    from tracklayer.web.app import create_app
    from tracklayer.web.server import http_protocol
    with Server(create_app(f"sqlite:///{tmp_path / 'p.db'}"), http=http_protocol()) as server:
        base, port = server.url, server.port
        made = httpx.post(f"{base}/api/games", json={"title": "1893", "players": [
            {"name": "Ann"}, {"name": "Bob"}]}).json()
        gid, seats = made["id"], made["seats"]
        reader = EventReader(f"{base}/api/games/{gid}/events")
        with httpx.Client(base_url=base) as client:     # one connection, kept alive
            for _ in range(3):
                for seat in seats:
                    h = {"Authorization": f"Bearer {seat['token']}"}
                    legal = client.get(f"/api/games/{gid}/legal", headers=h).json()
                    if legal["actions"]:
                        move = dict(legal["actions"][0], id=legal["next_id"])
                        assert client.post(f"/api/games/{gid}/actions", json=move,
                                           headers=h).status_code == 201
                        break
            assert client.head("/").status_code in (200, 405)
            assert client.get(f"/api/games/{gid}").status_code == 200
        assert [n for n, _ in reader.take(3)] == [1, 2, 3]
        reader.close()
        with socket.create_connection(("127.0.0.1", port)) as s:    # HTTP/1.0: closed after
            s.sendall(f"GET /api/games/{gid} HTTP/1.0\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and body.startswith(b"{")
