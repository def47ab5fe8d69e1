"""Live pages pushed (`tichu_scorer/live/stream.py`): the ASGI app driven as uvicorn drives it,
its versions read by hand (`Hub.check`) where a test needs to know when. An event on a
change and nothing without one, a wrong signature refused before the database is asked, the
heartbeat, a client that leaves dropped, and two app servers (and two live processes) over
one database."""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_live import watched
from tichu_scorer import create_app
from tichu_scorer.extensions import db
from tichu_scorer.live import poll, stream
from tichu_scorer.models import Match


class Phone:
    """One stream as uvicorn runs it: what the app sent, and a way to leave."""

    def __init__(self, app: stream.Stream, path: str, tag: str = "",
                 headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.app = app
        self.messages: list[dict] = []
        self.left = asyncio.Event()
        self.asked = False
        path, _, query = path.partition("?")
        scope = {"type": "http", "method": "GET", "path": path,
                 "query_string": (query or f"tag={tag}").encode(), "headers": headers or []}
        self.task = asyncio.get_running_loop().create_task(app(scope, self.receive, self.send))

    async def receive(self) -> dict:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.messages.append(message)

    @property
    def status(self) -> int:
        return next(m["status"] for m in self.messages if m["type"] == "http.response.start")

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages
                        if m["type"] == "http.response.body")

    def events(self) -> list[dict]:
        return [json.loads(d) for d in re.findall(rb"^data: (.*)$", self.body, re.M)
                if d != b"{}"]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def pushed(app) -> stream.Stream:
    """The stream app of `app`, its reading loop left to the test (`Hub.check`)."""
    found = stream.Stream(app)
    found.start = lambda: None  # type: ignore[method-assign]
    return found


def run(scenario) -> None:
    """Run `scenario` (a coroutine) to its end on an event loop of its own, in a thread of its
    own: a browser test's Playwright (sync API) earlier in this worker leaves its loop set
    as running on the worker's main thread, where `asyncio.run` is then refused."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(scenario)
        except BaseException as exc:  # raised again in the test's thread
            failed.append(exc)
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def stream_path(path: str) -> str:
    return path.replace(poll.PREFIX, stream.PATH, 1)


def test_an_event_on_a_change_and_nothing_without(client, two_phones):
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))

    async def scenario() -> None:
        app = pushed(client.application)
        phone = Phone(app, stream_path(path), tag)
        await settle()
        assert phone.status == 200
        start = next(m for m in phone.messages if m["type"] == "http.response.start")
        assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
        assert phone.body.startswith(b"retry: 2000\nevent: hello\n")
        assert app.hub.watches and await app.hub.check() == 0
        await settle()
        before = phone.body
        assert post_hand(other, url, hand_form([0, 1], a=60)).status_code == 303
        assert await app.hub.check() == 1
        await settle()
        [event] = phone.events()
        assert event["hands"] == 1 and event["last"] == {"action": "added", "hand": 1}
        assert event["tag"] != tag and f"id: {event['tag']}\n".encode() in phone.body
        # the same version a fresh page shows, and the same answer a poll gives
        assert watched(client.get(url).get_data(as_text=True))[1] == event["tag"]
        assert client.get(path, headers={"If-None-Match": f'"{tag}"'}).get_json() == event
        told = phone.body
        assert told != before and await app.hub.check() == 0
        await settle()
        assert phone.body == told  # nothing more while nothing changed
        phone.left.set()
        await phone.task

    run(scenario())


def test_a_reconnect_with_the_version_it_saw_hears_only_what_is_newer(client, two_phones):
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    post_hand(other, url, hand_form([0, 1], a=60))
    now = watched(client.get(url).get_data(as_text=True))[1]

    async def scenario() -> None:
        app = pushed(client.application)
        old = Phone(app, stream_path(path), tag)  # a page loaded before the save
        again = Phone(app, stream_path(path), tag, [(b"last-event-id", now.encode())])
        await settle()
        assert await app.hub.check() == 1
        await settle()
        assert [e["hands"] for e in old.events()] == [1] and again.events() == []
        for phone in (old, again):
            phone.left.set()
            await phone.task

    run(scenario())


def test_a_wrong_signature_is_404_before_the_database_is_asked(client, two_phones,
                                                               monkeypatch):
    url, _other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    key, sig = path.split("/")[-2:]

    def away(*_args):
        raise AssertionError("the database was asked")
    monkeypatch.setattr(poll, "read", away)

    async def scenario() -> None:
        app = stream.Stream(client.application)
        for bad in (f"{stream.PATH}m/{key}/{'A' * len(sig)}", f"{stream.PATH}m/{key}",
                    f"{stream.PATH}x/{key}/{sig}", path, "/", f"{stream.PATH}m/{key}.{key}/{sig}"):
            phone = Phone(app, bad, tag)
            await phone.task
            assert phone.status == 404, bad
            assert phone.body == b'{"error": "not found"}'
        assert not app.hub.watches and app.task is None  # nothing read, no loop started
        scope = {"type": "http", "method": "POST", "path": stream_path(path), "headers": []}
        sent: list[dict] = []

        async def send(m: dict) -> None:
            sent.append(m)

        async def receive() -> dict:
            return {"type": "http.request", "body": b""}
        await app(scope, receive, send)
        assert sent[0]["status"] == 405

    run(scenario())


def test_a_heartbeat_keeps_an_idle_stream_and_a_client_that_leaves_is_dropped(client,
                                                                              two_phones):
    url, _other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))

    async def scenario() -> None:
        app = stream.Stream(client.application, heartbeat=0.05, tick=0.05)
        phone = Phone(app, stream_path(path), tag)
        for _ in range(100):  # three heartbeats: 0.15 s, longer on a loaded machine
            await asyncio.sleep(0.05)
            if phone.body.count(b": \n\n") >= 3 and app.hub.reads >= 2:
                break
        assert phone.body.count(b": \n\n") >= 3 and phone.events() == []
        assert app.hub.reads >= 2  # its loop read the version, and found nothing new
        assert len(app.hub.watches) == 1
        phone.left.set()
        await asyncio.wait_for(phone.task, 1)
        assert not app.hub.watches
        # A read already under way when the phone left may still end and count: wait until
        # the count holds still for three ticks (never, if the loop went on reading).
        reads = app.hub.reads
        for _ in range(100):
            await asyncio.sleep(0.15)
            if app.hub.reads == reads:
                break
            reads = app.hub.reads
        await asyncio.sleep(0.2)
        assert app.hub.reads == reads  # no stream: nothing is read
        app.task.cancel()

    run(scenario())


def test_tables_are_pushed_and_a_deleted_match_ends_its_stream(app, client, two_phones):
    url, other = two_phones
    history = client.get("/").get_data(as_text=True)
    path, tag = watched(history)
    match_path, match_tag = watched(client.get(url).get_data(as_text=True))

    async def scenario() -> None:
        pushes = pushed(app)
        tables = Phone(pushes, stream_path(path), tag)
        match = Phone(pushes, stream_path(match_path), match_tag)
        await settle()
        assert await pushes.hub.check() == 0
        new_match(other)
        assert await pushes.hub.check() == 1
        await settle()
        [event] = tables.events()
        assert event["matches"] == 2
        assert client.get(path, headers={"If-None-Match": f'"{tag}"'}).get_json() == event
        # a rename on the other phone: told too (the table page shows the name)
        table_key = re.search(r'href="/tables/([^"/]+)"', history).group(1)
        assert other.post(f"/tables/{table_key}/rename",
                          data={"name": "Friday night"}).status_code == 303
        assert await pushes.hub.check() == 1
        await settle()
        renamed = tables.events()[-1]
        assert renamed["matches"] == 2 and renamed["tag"] != event["tag"]
        assert watched(client.get("/").get_data(as_text=True))[1] == renamed["tag"]
        assert "Friday night" not in renamed["tag"]
        with app.app_context():
            db.session.delete(db.session.get(Match, match_id(url)))
            db.session.commit()
        await pushes.hub.check()
        await asyncio.wait_for(match.task, 1)  # ended by the server
        assert b"event: gone\n" in match.body
        tables.left.set()
        await tables.task

    run(scenario())


@pytest.fixture()
def elsewhere(app, tmp_path):
    """A second app server over the same database."""
    settings = {name: app.config[name] for name in (
        "TESTING", "WTF_CSRF_ENABLED", "SECRET_KEY", "RATELIMIT_ENABLED",
        "SQLALCHEMY_DATABASE_URI", "PAGE_STORE_URI")}
    other = create_app(settings, instance_path=str(tmp_path / "elsewhere"))
    yield other
    with other.app_context():
        db.engine.dispose()


def test_two_app_servers_and_two_live_processes_agree(app, client, two_phones,
                                                      elsewhere):
    """A save through app server B is pushed by the live process beside A and by the one
    beside B, to pages that either server signed."""
    url, other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    twin = elsewhere.test_client()
    twin.set_cookie("session", other.get_cookie("session").value)
    assert watched(twin.get(url).get_data(as_text=True)) == (path, tag)
    twin.post("/phone", data={"name": "Bob"})  # the note names the phone that saved

    async def scenario() -> None:
        here, there = pushed(app), pushed(elsewhere)
        phones = [Phone(here, stream_path(path), tag), Phone(there, stream_path(path), tag)]
        await settle()
        assert post_hand(twin, url, hand_form([0, 1], a=60)).status_code == 303
        assert await here.hub.check() == 1 and await there.hub.check() == 1
        await settle()
        assert phones[0].events() == phones[1].events()
        assert phones[0].events()[0]["last"] == {"action": "added", "hand": 1, "phone": "Bob"}
        for phone in phones:
            phone.left.set()
            await phone.task
        with elsewhere.app_context():
            db.engine.dispose()  # the live process's reads ran on B's pool

    run(scenario())


def test_without_a_live_process_the_app_says_204_and_the_page_polls(client, two_phones):
    """`make run`: the Flask app answers the stream path 204 (a browser's EventSource then
    stops, and live.js polls), without reading anything."""
    url, _other = two_phones
    path, _tag = watched(client.get(url).get_data(as_text=True))
    r = client.get(stream_path(path))
    assert r.status_code == 204 and r.get_data() == b""


def test_one_client_address_holds_at_most_its_share_of_streams(client, two_phones,
                                                               monkeypatch):
    """A client address (an IPv6 client by its /64, behind a trusted proxy the address it
    saw) may hold MAX_PER_CLIENT streams; one more is refused 429 with Retry-After (the
    page polls instead), another address is not held back, and a stream that ends frees
    its place."""
    monkeypatch.setattr(stream, "MAX_PER_CLIENT", 2)
    url, _other = two_phones
    path, tag = watched(client.get(url).get_data(as_text=True))
    client.application.config["PROXY_COUNT"] = 1

    def via(address: str) -> list[tuple[bytes, bytes]]:
        return [(b"x-forwarded-for", f"203.0.113.9, {address}".encode())]

    async def scenario() -> None:
        app = pushed(client.application)
        first = Phone(app, stream_path(path), tag, via("2001:db8:1:2::5"))
        second = Phone(app, stream_path(path), tag, via("2001:db8:1:2::77"))  # the same /64
        await settle()
        refused = Phone(app, stream_path(path), tag, via("2001:db8:1:2::9"))
        await settle()
        assert (first.status, second.status, refused.status) == (200, 200, 429)
        assert (b"retry-after", b"60") in next(
            m["headers"] for m in refused.messages if m["type"] == "http.response.start")
        elsewhere = Phone(app, stream_path(path), tag, via("198.51.100.4"))
        await settle()
        assert elsewhere.status == 200
        first.left.set()
        await asyncio.wait_for(first.task, 1)
        again = Phone(app, stream_path(path), tag, via("2001:db8:1:2::9"))
        await settle()
        assert again.status == 200
        for phone in (second, elsewhere, again):
            phone.left.set()
            await asyncio.wait_for(phone.task, 1)
        assert not app.hub.watches and not app.hub.clients

    run(scenario())
