"""Live pages pushed: one asynchronous process (uvicorn, an ASGI app with no framework) holds
every watching phone's Server-Sent Events stream and tells each when what its page shows
changed. `python -m tichu_scorer.live.stream` runs it beside gunicorn (LIVE_BIND, default
127.0.0.1:8001); the proxy sends it `/live/s/…` (deploy/Caddyfile, docs/DEPLOY.md).

A page's stream is its signed live path (`poll.url`) under `/live/s/`, with the version the
page shows (`?tag=`, or the `Last-Event-ID` the browser sends again when it reconnects).
The signature is checked before anything else (404 otherwise; the database is not asked).
Every `TICK` seconds, while any stream is open, the versions of all the matches and tables
the streams watch are read together (one statement for the matches, one for the tables,
`poll.versions`, `poll.table_sums`), and an event goes only to the streams whose version
changed: the same JSON a poll answers 200 with (`{"tag", "revision", "hands", "last"}` or
`{"tag", "matches"}`), its `id` the new version. A stream whose match or tables are gone
gets `event: gone` and is ended. A comment every `HEARTBEAT` seconds keeps proxies from
closing an idle stream and shows a dead client; a client that leaves is dropped at once.
An open stream costs a socket and a few objects; nothing is done for it until its version
changes. Every app server writes the same database, so any number of app servers and of
these processes agree.

Where no such process runs (`make run`), the Flask app answers `/live/s/…` with 204, and
`static/js/live.js` asks the polled path instead (`poll.Middleware`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from ..limits import counted
from . import poll

TICK = 0.75  # s between reads of the watched versions (a change shows within ~1 s)
HEARTBEAT = 20.0  # s between comments on an idle stream (proxies close after 30–60 s)
RETRY_MS = 2000  # the browser's wait before it opens a dropped stream again
MAX_STREAMS = 20000
# Streams one client address may hold open (an IPv6 client counted by its /64, as the rate
# limits count it): a club's room of phones behind one router, each with a page or two
# open, stays far below; a script opening streams by the thousand does not take them all.
MAX_PER_CLIENT = 200
PATH = poll.PREFIX + poll.STREAM
TAG = 64  # longest version taken from a client

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
log = logging.getLogger(__name__)


class Watch:
    """One open stream: what it watches, the version its page shows, its outbox."""

    __slots__ = ("kind", "names", "tag", "client", "queue")

    def __init__(self, kind: str, names: list[str], tag: str, client: str = "") -> None:
        self.kind, self.names, self.tag, self.client = kind, names, tag, client
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()


class Hub:
    """The open streams of this process and the loop that reads their versions."""

    def __init__(self, app: Flask, tick: float = TICK) -> None:
        self.app = app
        self.tick = tick
        self.watches: set[Watch] = set()
        self.clients: dict[str, int] = {}  # open streams per client address
        self.engine: Any = None
        self.reads = 0  # statements run (for tests and the benchmark)
        self.woken: asyncio.Event | None = None

    def add(self, watch: Watch) -> None:
        self.watches.add(watch)
        self.clients[watch.client] = self.clients.get(watch.client, 0) + 1
        if self.woken is not None:
            self.woken.set()

    def drop(self, watch: Watch) -> None:
        if watch in self.watches:
            self.watches.discard(watch)
            left = self.clients.get(watch.client, 1) - 1
            if left > 0:
                self.clients[watch.client] = left
            else:
                self.clients.pop(watch.client, None)

    def _read(self, matches: list[str], tables: list[str],
              ) -> tuple[dict[str, tuple[int, int | None, int]], dict[str, tuple[Any, ...]]]:
        if self.engine is None:
            self.engine = poll.engine(self.app)
        found = poll.versions(self.engine, matches) if matches else {}
        sums = poll.table_sums(self.engine, tables) if tables else {}
        self.reads += bool(matches) + bool(tables)
        return found, sums

    def _last(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        self.reads += 1
        return poll.last_entries(self.engine, ids)

    async def check(self) -> int:
        """Reads the watched versions once and pushes to the streams that changed; the
        number of streams told."""
        watches = list(self.watches)
        if not watches:
            return 0
        matches = sorted({w.names[0] for w in watches if w.kind == "m"})
        tables = sorted({n for w in watches if w.kind == "t" for n in w.names})
        found, sums = await asyncio.to_thread(self._read, matches, tables)
        changed: list[tuple[Watch, str, dict[str, Any]]] = []
        gone: list[Watch] = []
        for watch in watches:
            if watch.kind == "m":
                version = found.get(watch.names[0])
                if version is None:
                    gone.append(watch)
                    continue
                tag = poll.match_tag(version[1], version[2])
                data: dict[str, Any] = {"revision": version[1] or 0, "hands": version[2],
                                        "id": version[0]}
            else:
                tag = poll.tables_tag(self.app, sums, watch.names) or ""
                if not tag:
                    gone.append(watch)
                    continue
                data = {"matches": poll.matches_of(sums, watch.names)}
            if tag != watch.tag:
                changed.append((watch, tag, data))
        ids = sorted({d["id"] for w, _t, d in changed if w.kind == "m"})
        last = await asyncio.to_thread(self._last, ids) if ids else {}
        for watch, tag, data in changed:
            if watch.kind == "m":
                data = {"revision": data["revision"], "hands": data["hands"],
                        "last": last.get(data["id"])}
            watch.tag = tag
            watch.queue.put_nowait(_event(json.dumps({"tag": tag} | data), tag))
        for watch in gone:
            watch.queue.put_nowait(b"event: gone\ndata: {}\n\n")
            watch.queue.put_nowait(None)
            self.drop(watch)
        return len(changed)

    async def run(self) -> None:
        """Reads every `tick` seconds while a stream is open; sleeps while none is."""
        self.woken = asyncio.Event()
        failures = 0
        while True:
            if not self.watches:
                self.woken.clear()
                await self.woken.wait()
            began = time.monotonic()
            try:
                await self.check()
                failures = 0
            except Exception:  # the database is away: the streams stay open, asked later
                failures += 1
                if failures in (1, 10) or failures % 100 == 0:
                    log.warning("Live versions unavailable", exc_info=True)
            wait = self.tick * min(2 ** failures, 16) - (time.monotonic() - began)
            await asyncio.sleep(max(wait, self.tick / 4))


def _event(data: str, tag: str) -> bytes:
    return f"id: {tag}\ndata: {data}\n\n".encode()


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


async def _plain(send: Send, status: int, body: bytes,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode())] + (extra or [])})
    await send({"type": "http.response.body", "body": body})


class Stream:
    """The ASGI app: `GET /live/s/m|t/<keys>/<sig>?tag=<version>` is a stream."""

    def __init__(self, app: Flask, heartbeat: float = HEARTBEAT, tick: float = TICK) -> None:
        self.app = app
        self.hub = Hub(app, tick)
        self.heartbeat = heartbeat
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self.task is not None:
                    self.task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def start(self) -> None:
        if self.task is None:
            self.loop = asyncio.get_running_loop()
            self.task = self.loop.create_task(self.hub.run())

    def close(self) -> None:
        """Ends every stream (the process stops: the browsers open theirs again, elsewhere
        or after the restart). From any thread."""
        def end() -> None:
            for watch in list(self.hub.watches):
                watch.queue.put_nowait(None)
        if self.loop is not None:
            self.loop.call_soon_threadsafe(end)

    def client(self, scope: dict[str, Any]) -> str:
        """The client's address as the app's rate limits count it: behind PROXY_COUNT
        trusted proxies the one the last of them saw (X-Forwarded-For, as the app's
        ProxyFix reads it), else the connection's."""
        hops = int(self.app.config.get("PROXY_COUNT") or 0)
        if hops > 0:
            chain = [a.strip() for a in _header(scope, b"x-forwarded-for").split(",")]
            if len(chain) >= hops and chain[-hops]:
                return counted(chain[-hops])
        peer = scope.get("client") or ("", 0)
        return counted(str(peer[0]))

    async def http(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"", [(b"allow", b"GET, HEAD")])
            return
        path = scope["path"]
        named = poll.parse(self.app, path[len(PATH):]) if path.startswith(PATH) else None
        if named is None:
            await _plain(send, 404, b'{"error": "not found"}')
            return
        client = self.client(scope)
        if (len(self.hub.watches) >= MAX_STREAMS
                or self.hub.clients.get(client, 0) >= MAX_PER_CLIENT):
            # the page polls instead (live.js), until a stream is free again
            await _plain(send, 503 if len(self.hub.watches) >= MAX_STREAMS else 429,
                         b'{"error": "try again"}', [(b"retry-after", b"60")])
            return
        self.start()
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        tag = (_header(scope, b"last-event-id") or query.get("tag", [""])[0])[:TAG]
        watch = Watch(named[0], named[1], tag, client)
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no"),
            (b"x-content-type-options", b"nosniff")]})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        # at once, so that the page knows the stream gets through (a buffering proxy would
        # hold it back: the page then polls)
        await send({"type": "http.response.body", "more_body": True,
                    "body": f"retry: {RETRY_MS}\nevent: hello\ndata: {{}}\n\n".encode()})
        self.hub.add(watch)

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            watch.queue.put_nowait(None)

        listener = asyncio.get_running_loop().create_task(gone())
        try:
            while True:
                try:
                    chunk = await asyncio.wait_for(watch.queue.get(), self.heartbeat)
                except TimeoutError:
                    chunk = b": \n\n"
                if chunk is None:
                    break
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except OSError:
            pass  # the client left while we wrote
        finally:
            self.hub.drop(watch)
            listener.cancel()
        try:
            await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass


def main() -> None:
    import uvicorn

    from .. import create_app

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            app.close()  # the streams end now, so that the process stops at once
            super().handle_exit(sig, frame)

    host, _, port = os.environ.get("LIVE_BIND", "127.0.0.1:8001").rpartition(":")
    logging.basicConfig(level=logging.WARNING)
    app = Stream(create_app())
    Server(uvicorn.Config(app, host=host or "127.0.0.1", port=int(port), log_level="warning",
                          access_log=False, lifespan="on", timeout_graceful_shutdown=2,
                          proxy_headers=False)).run()


if __name__ == "__main__":
    main()
