"""Live updates: every stored log entry reaches the listeners of its game.

:class:`Broker` fans out in memory, within one process; :class:`RedisBroker` publishes
through Redis pub/sub, so that listeners on every worker sharing that Redis hear it (each
worker listens and fans out to its own listeners; its own entries it hands to them at
once). Redis pub/sub ignores the database number of its URL, so every channel is named for
the installation (the name its database was given, ``Store.installation``):
``tracklayer:<installation>:game:<id>``.

A listener's queue holds ``(number, data)``: the entry's number (``NOTICE`` for a notice,
which carries a proposal made or answered) and the event's data as JSON, written once per
entry whatever the number of listeners, and carried through Redis as written."""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import uuid
from contextlib import contextmanager
from typing import Dict, Iterator, Optional, Set, Tuple

LOG = logging.getLogger(__name__)


NOTICE = -1                              # the number a live notice goes out with (no entry)


def channel_prefix(installation: str) -> str:
    return f"tracklayer:{installation}:game:"


def event_data(number: int, entry: dict) -> str:
    """What a listener is sent of an entry: the entry as JSON; of a notice, its proposal."""
    return json.dumps(entry.get("proposal") if number == NOTICE else entry)


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

    def deliver(self, game_id: int, number: int, data: str) -> None:
        """Queue ``(number, data)`` for the game's listeners, after what was queued for
        them before (from the listener's own loop without waking it through its pipe)."""
        with self.lock:
            targets = list(self.listeners.get(game_id, ()))
        if not targets:
            return
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for loop, queue in targets:
            try:
                if loop is here:
                    loop.call_soon(queue.put_nowait, (number, data))
                else:
                    loop.call_soon_threadsafe(queue.put_nowait, (number, data))
            except RuntimeError:        # that loop has closed
                pass

    def publish(self, game_id: int, number: int, entry: dict,
                text: Optional[str] = None) -> None:
        """Tell the game's listeners of an entry (``text``: as the log keeps it, when at
        hand: what a listener is sent of it) or a notice."""
        if self.listeners.get(game_id):             # written only for someone to hear
            self.deliver(game_id, number, text if text is not None else
                         event_data(number, entry))

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
        self.origin = uuid.uuid4().hex          # this worker, in what it publishes
        self.outbox: "queue.SimpleQueue" = queue.SimpleQueue()
        self.sender = threading.Thread(target=self._send, name="redis-publisher",
                                       daemon=True)
        self.sender.start()

    def publish(self, game_id: int, number: int, entry: dict,
                text: Optional[str] = None) -> None:
        """Handed to this worker's listeners at once, and queued for the publisher's
        thread for the other workers', in the order given (a game's entries are published
        under its lock, so in order), so that no request waits for Redis: an action
        answered on the event loop would hold every other request meanwhile. The message
        is ``origin number data``: a worker passes over its own."""
        data = text if text is not None else event_data(number, entry)
        self.deliver(game_id, number, data)
        self.outbox.put((f"{self.prefix}{game_id}", f"{self.origin} {number} {data}"))

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
            # each message as it comes (``listen``: no timeout set up and torn down around
            # each, as ``get_message`` has: a fifth of the message's cost)
            async for msg in pubsub.listen():
                if msg.get("type") != "pmessage":
                    continue
                try:
                    game_id = int(msg["channel"].decode().rsplit(":", 1)[1])
                    origin, number, data = msg["data"].decode().split(" ", 2)
                    if origin != self.origin:
                        self.deliver(game_id, int(number), data)
                except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
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
