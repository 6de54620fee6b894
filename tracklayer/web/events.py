"""Live updates: every stored log entry reaches the listeners of its game.

:class:`Broker` fans out in memory, within one process; :class:`RedisBroker` publishes
through Redis pub/sub, so that listeners on every worker sharing that Redis hear it (each
worker listens and fans out to its own listeners). Redis pub/sub ignores the database
number of its URL, so every channel is named for the installation (the name its database
was given, ``Store.installation``): ``tracklayer:<installation>:game:<id>``."""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from contextlib import contextmanager
from typing import Dict, Iterator, Optional, Set, Tuple

LOG = logging.getLogger(__name__)


def channel_prefix(installation: str) -> str:
    return f"tracklayer:{installation}:game:"


class Broker:
    """In-memory fan-out; ``publish`` may be called from any thread."""

    def __init__(self) -> None:
        self.listeners: Dict[int, Set[Tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = {}
        self.lock = threading.Lock()

    @contextmanager
    def listen(self, game_id: int) -> Iterator[asyncio.Queue]:
        """A queue of ``(number, entry)`` for the game's entries, while in the block (call
        from the event loop that reads the queue)."""
        item = (asyncio.get_running_loop(), asyncio.Queue())
        with self.lock:
            self.listeners.setdefault(game_id, set()).add(item)
        try:
            yield item[1]
        finally:
            with self.lock:
                self.listeners.get(game_id, set()).discard(item)

    def deliver(self, game_id: int, number: int, entry: dict) -> None:
        with self.lock:
            targets = list(self.listeners.get(game_id, ()))
        for loop, queue in targets:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, (number, entry))
            except RuntimeError:        # that loop has closed
                pass

    def publish(self, game_id: int, number: int, entry: dict) -> None:
        self.deliver(game_id, number, entry)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisBroker(Broker):
    """Fan-out between the workers of one installation through Redis pub/sub."""

    def __init__(self, url: str, installation: str) -> None:
        super().__init__()
        import redis
        self.url = url
        self.prefix = channel_prefix(installation)
        self.client = redis.Redis.from_url(url)
        self.client.ping()
        self.task: Optional[asyncio.Task] = None
        self.ready = asyncio.Event()
        self.outbox: "queue.SimpleQueue" = queue.SimpleQueue()
        self.sender = threading.Thread(target=self._send, name="redis-publisher",
                                       daemon=True)
        self.sender.start()

    def publish(self, game_id: int, number: int, entry: dict) -> None:
        """Queued for the publisher's thread, in the order given (a game's entries are
        published under its lock, so in order), so that no request waits for Redis: an
        action answered on the event loop would hold every other request meanwhile."""
        self.outbox.put((f"{self.prefix}{game_id}",
                         json.dumps({"number": number, "entry": entry})))

    def _send(self) -> None:
        """Publish what is queued, the messages that arrived together in one round trip; a
        message Redis did not take is logged and dropped (a stream that then meets a gap
        fills it from the log)."""
        from redis.exceptions import RedisError
        while True:
            batch = [self.outbox.get()]
            while len(batch) < 500:
                try:
                    batch.append(self.outbox.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            batch = [m for m in batch if m is not None]
            if batch:
                try:
                    pipe = self.client.pipeline(transaction=False)
                    for channel, body in batch:
                        pipe.publish(channel, body)
                    pipe.execute()
                except (RedisError, OSError) as e:
                    LOG.warning("%d live update(s) not published (Redis: %s)", len(batch), e)
            if stop:
                return

    async def start(self) -> None:
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self.ready.wait(), 10)

    async def _listen(self) -> None:
        """Hear the installation's channels. Should Redis go away, say so and listen again
        once it is back: meanwhile this worker's streams hear its own entries only, and a
        stream that then meets a gap fills it from the log."""
        from redis.exceptions import RedisError
        while True:
            try:
                await self._hear()
            except (RedisError, OSError) as e:
                LOG.warning("live updates from other workers paused (Redis: %s)", e)
                await asyncio.sleep(1.0)

    async def _hear(self) -> None:
        import redis.asyncio as aredis
        client = aredis.Redis.from_url(self.url)
        pubsub = client.pubsub()
        await pubsub.psubscribe(f"{self.prefix}*")
        self.ready.set()
        try:
            while True:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                if msg is None or msg.get("type") != "pmessage":
                    continue
                try:
                    game_id = int(msg["channel"].decode().rsplit(":", 1)[1])
                    body = json.loads(msg["data"])
                    self.deliver(game_id, int(body["number"]), body["entry"])
                except (ValueError, KeyError, TypeError) as e:
                    LOG.warning("a malformed message on %s: %s", msg.get("channel"), e)
        finally:
            await pubsub.aclose()
            await client.aclose()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        self.outbox.put(None)
        self.sender.join(5)
        self.client.close()


def make_broker(redis_url: Optional[str], installation: str = "") -> Broker:
    return RedisBroker(redis_url, installation) if redis_url else Broker()
