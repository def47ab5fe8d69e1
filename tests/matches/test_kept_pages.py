"""`matches.kept_pages`, called directly: what a match page's key holds (match, revision,
language, role, template), the build hash, the validator (ETag) and when a repeat view is a
304 (never while a one-time message waits), the stand-in for the CSRF token, the bodies this
process keeps (one revision per page; each reader gets their own token), and the shared
store: its value's form, a miss for another revision or a value not as written, and its
pause after a failure (not asked again until the pause is over). The store's Redis client
is replaced by a fake one: no server is started."""

from __future__ import annotations

import logging
import re
import time

import pytest
import redis
from flask import Flask, flash, session
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response

from tests.conftest import make_app
from tests.matches.conftest import LEVEL, add, new_match
from tichu_scorer.matches import kept_pages
from tichu_scorer.matches.kept_pages import Kept, PageKey
from tichu_scorer.models import Match

SHOW = "matches/show.html"
KEY = PageKey("abc", 3, "en", True, SHOW)
URL = "/matches/abc"


class FakeRedis:
    """The two commands the store uses, on a dict; `fail` makes every command raise."""

    def __init__(self) -> None:
        self.values: dict[str, bytes] = {}
        self.calls = 0
        self.fail = False

    def get(self, name: str) -> bytes | None:
        self.calls += 1
        if self.fail:
            raise redis.ConnectionError("refused")
        return self.values.get(name)

    def set(self, name: str, value: bytes, ex: int | None = None) -> None:
        self.calls += 1
        if self.fail:
            raise redis.TimeoutError("timed out")
        assert ex == kept_pages.STORE_TTL
        self.values[name] = value


@pytest.fixture()
def store(app):
    """A shared store on a fake client, installed as the app's."""
    shared = kept_pages.SharedStore("redis://127.0.0.1:1/0")  # never connected
    shared.client = FakeRedis()
    app.extensions["tichu_page_store"] = shared
    return shared


def test_the_page_key_follows_the_match_revision_language_and_role(app):
    with app.test_request_context(URL, headers={"Accept-Language": "de"}):
        match = new_match()
        before = kept_pages.page_key(match, True, SHOW)
        assert before == PageKey(match.key, match.revision, "de", True, SHOW, False)
        after = kept_pages.page_key(add(match.key, LEVEL), False, SHOW, every=True)
    assert after.revision == before.revision + 1  # a hand added raises the revision
    assert (after.locale, after.scorer, after.every) == ("de", False, True)


def test_a_match_not_stored_yet_is_revision_zero(app):
    with app.test_request_context(URL):
        key = kept_pages.page_key(Match(key="new"), False, SHOW)  # revision: set on insert
    assert key == PageKey("new", 0, "en", False, SHOW)


@pytest.mark.one_database
def test_the_build_hashes_the_code_templates_and_translations_by_name_and_content(
        tmp_path, monkeypatch):
    monkeypatch.setattr(kept_pages, "SOURCES", (tmp_path,))

    def build() -> str:
        app = Flask("build")
        kept_pages.remember_build(app)
        assert app.extensions["tichu_page_store"] is None  # no PAGE_STORE_URI: none
        return str(app.extensions["tichu_build"])

    (tmp_path / "views.py").write_text("x = 1")
    (tmp_path / "page.html").write_text("<p>")
    first = build()
    assert re.fullmatch(r"[0-9a-f]{16}", first) and build() == first
    (tmp_path / "notes.txt").write_text("not part of the app")
    assert build() == first
    (tmp_path / "page.html").write_text("<p>changed")
    changed = build()
    assert changed != first
    (tmp_path / "page.html").rename(tmp_path / "other.html")  # same content, another name
    assert build() not in (first, changed)
    (tmp_path / "de.mo").write_bytes(b"\x00")
    assert len({first, changed, build()}) == 3


def test_remember_build_makes_a_shared_store_only_with_a_uri(app):
    assert app.extensions["tichu_page_store"] is None  # the tests' apps: PAGE_STORE_URI ""
    other = Flask("other")
    other.config["PAGE_STORE_URI"] = "redis://127.0.0.1:1/0"
    kept_pages.remember_build(other)  # no connection is made here
    assert isinstance(other.extensions["tichu_page_store"], kept_pages.SharedStore)
    assert other.extensions["tichu_build"] == app.extensions["tichu_build"]  # same files


def test_the_etag_changes_with_everything_the_page_depends_on(app):
    with app.test_request_context(URL):
        tag = kept_pages.etag(KEY)
        # an HMAC, 32 hex digits (the key "abc" may occur in them by chance: not checked)
        assert re.fullmatch(r"[0-9a-f]{32}", tag) and kept_pages.etag(KEY) == tag
        others = [PageKey("abd", 3, "en", True, SHOW), PageKey("abc", 4, "en", True, SHOW),
                  PageKey("abc", 3, "de", True, SHOW), PageKey("abc", 3, "en", False, SHOW),
                  PageKey("abc", 3, "en", True, "matches/seigneur.html"),
                  PageKey("abc", 3, "en", True, SHOW, every=True)]
        tags = {kept_pages.etag(key) for key in others}
        assert len(tags) == len(others) and tag not in tags
    with app.test_request_context("/matches/abc/every-hand"):  # another endpoint
        assert kept_pages.etag(KEY) != tag
    with app.test_request_context(URL):
        generate_csrf()  # the session gets its CSRF secret: another copy of the page
        with_token = kept_pages.etag(KEY)
        assert with_token != tag
        app.extensions["tichu_build"] = "another deploy"
        assert kept_pages.etag(KEY) not in (tag, with_token)


def test_the_etag_is_keyed_by_the_csrf_secret(app, tmp_path):
    with app.test_request_context(URL):
        tag = kept_pages.etag(KEY)
    other = make_app(tmp_path / "other", SECRET_KEY="rotated")
    with other.test_request_context(URL):
        assert kept_pages.etag(KEY) != tag
    csrf = make_app(tmp_path / "csrf", WTF_CSRF_SECRET_KEY="its own")
    with csrf.test_request_context(URL):
        assert kept_pages.etag(KEY) != tag
    same = make_app(tmp_path / "same")
    with same.test_request_context(URL):
        assert kept_pages.etag(KEY) == tag  # another process of the same deploy


def test_a_copy_with_the_same_tag_is_not_modified(app):
    with app.test_request_context(URL):
        tag = kept_pages.etag(KEY)
    with app.test_request_context(URL):
        assert kept_pages.not_modified(tag) is None  # no copy
    for sent, echoed in ((f'"{tag}"', tag), (f'W/"{tag}"', tag),
                         (f'"other", "{tag}:br"', f"{tag}:br"), (f'"{tag}:gzip"', f"{tag}:gzip")):
        with app.test_request_context(URL, headers={"If-None-Match": sent}):
            response = kept_pages.not_modified(tag)
            assert response is not None, sent
            assert response.status_code == 304 and response.get_data() == b""
            assert response.get_etag() == (echoed, False)
            assert response.headers["Cache-Control"] == "private, no-cache"
    for sent in (f'"{tag[:-1]}"', f'"{tag}:zstd"', f'"x{tag}"'):
        with app.test_request_context(URL, headers={"If-None-Match": sent}):
            assert kept_pages.not_modified(tag) is None, sent


def test_a_waiting_message_is_never_answered_304(app):
    with app.test_request_context(URL, headers={"If-None-Match": '"t"'}):
        assert not kept_pages.messages_waiting()
        assert kept_pages.not_modified("t") is not None
        flash("Hand 3 saved.")
        assert kept_pages.messages_waiting() and kept_pages.FLASHES in session
        assert kept_pages.not_modified("t") is None


def test_validated_sets_the_tag_unless_the_page_may_show_a_message(app):
    with app.test_request_context(URL):
        page = kept_pages.validated(Response("<p>page</p>"), kept_pages.etag(KEY))
        assert page.get_etag() == (kept_pages.etag(KEY), False)  # strong
        assert page.headers["Cache-Control"] == kept_pages.CACHE_CONTROL
        flashed = kept_pages.validated(Response("<p>page</p>"), None)
        assert flashed.get_etag() == (None, None)
        assert flashed.headers["Cache-Control"] == kept_pages.CACHE_CONTROL


def test_the_stand_in_is_one_per_deploy_and_secret(app, tmp_path):
    marker = kept_pages.stand_in(app)
    assert re.fullmatch(r"[0-9a-f]{32}", marker)
    assert kept_pages.stand_in(make_app(tmp_path / "same")) == marker
    assert kept_pages.stand_in(make_app(tmp_path / "key", SECRET_KEY="rotated")) != marker
    app.extensions["tichu_build"] = "another deploy"
    assert kept_pages.stand_in(app) != marker


def test_a_kept_body_is_given_to_each_reader_with_their_own_token(app):
    marker = kept_pages.stand_in(app)
    body = f'<form><input name="csrf_token" value="{marker}"></form>'
    with app.test_request_context(URL):
        kept = kept_pages.keep_body(KEY, "Ann, Bob, Cy, Dee", body)
        mine = session["csrf_token"]  # made for the page, as rendering it would have
        assert marker not in kept.body and kept.title == "Ann, Bob, Cy, Dee"
        assert isinstance(kept.body, Markup) and generate_csrf() in kept.body
    with app.test_request_context(URL):
        theirs = kept_pages.kept_body(KEY)
        assert theirs is not None and marker not in theirs.body
        assert session["csrf_token"] != mine and generate_csrf() in theirs.body
        assert theirs.title == "Ann, Bob, Cy, Dee"


def test_a_body_without_a_form_puts_no_token_in_the_session(app):
    with app.test_request_context(URL):
        kept = kept_pages.keep_body(KEY, "Ann", "<p>no form</p>")
        assert kept == Kept("Ann", "<p>no form</p>") and "csrf_token" not in session


def test_a_body_is_kept_for_its_revision_only_and_apart_from_other_pages(app):
    with app.test_request_context(URL):
        kept_pages.keep_body(KEY, "t", "<p>3</p>")
        assert kept_pages.kept_body(KEY).body == "<p>3</p>"
        newer = PageKey("abc", 4, "en", True, SHOW)
        assert kept_pages.kept_body(newer) is None  # never another revision's body
        for other in (PageKey("abc", 3, "de", True, SHOW), PageKey("abc", 3, "en", False, SHOW),
                      PageKey("abc", 3, "en", True, SHOW, every=True)):
            assert kept_pages.kept_body(other) is None
        kept_pages.keep_body(newer, "t", "<p>4</p>")
        assert kept_pages.kept_body(newer).body == "<p>4</p>"
        assert kept_pages.kept_body(KEY) is None  # one revision a page: the older went


def test_the_store_holds_revision_title_and_body_under_the_pages_name(app, store):
    with app.test_request_context(URL):
        kept_pages.keep_body(KEY, "Zoë, \"B\"\nC", "<p>body\nlines</p>")
        (name,) = store.client.values
        assert name == store.name(KEY)
        assert name.startswith(f"tichu:page:{kept_pages.build()}:")
        assert f":abc:en:1:{SHOW}:0:{kept_pages.stand_in(app)}" in name
        value = store.client.values[name]
        assert value == b'3\n"Zo\\u00eb, \\"B\\"\\nC"\n<p>body\nlines</p>'
        assert store.get(KEY) == Kept("Zoë, \"B\"\nC", "<p>body\nlines</p>")
        assert store.get(PageKey("abc", 2, "en", True, SHOW)) is None  # older revision
        assert store.get(PageKey("abc", 3, "en", False, SHOW)) is None  # another name


@pytest.mark.parametrize("value", [b"3", b"3\nnot json\n<p>", b'3\n["a list"]\n<p>',
                                   b'3\n"Ann"\n\xff\xfe', b'4\n"Ann"\n<p>'])
def test_a_stored_value_not_as_written_is_a_miss(app, store, value):
    with app.test_request_context(URL):
        store.client.values[store.name(KEY)] = value
        assert store.get(KEY) is None
        assert kept_pages.kept_body(KEY) is None


def test_a_body_found_in_the_store_is_kept_here_with_the_readers_token(app, store):
    marker = kept_pages.stand_in(app)
    with app.test_request_context(URL):
        store.put(KEY, Kept("Ann", f"<input value={marker}>"))  # another process built it
        asked = store.client.calls
        found = kept_pages.kept_body(KEY)
        assert found is not None and found.title == "Ann"
        assert found.body == f"<input value={generate_csrf()}>"
        assert store.client.calls == asked + 1
        assert kept_pages.kept_body(KEY) is not None
        assert store.client.calls == asked + 1  # kept here since: the store not asked


def test_a_failing_store_is_left_alone_for_the_pause(app, store, caplog):
    with app.test_request_context(URL), caplog.at_level(logging.WARNING):
        store.client.fail = True
        start = time.monotonic()
        assert kept_pages.kept_body(KEY) is None  # the page is built, as without a store
        assert store.client.calls == 1
        assert start + kept_pages.STORE_PAUSE <= store.paused_until
        assert store.paused_until <= time.monotonic() + kept_pages.STORE_PAUSE
        assert "Page store unreachable (ConnectionError)" in caplog.text
        kept = kept_pages.keep_body(KEY, "Ann", "<p>built</p>")
        assert kept.body == "<p>built</p>"  # still given, kept here
        assert kept_pages.kept_body(PageKey("xyz", 1, "en", True, SHOW)) is None
        assert store.client.calls == 1  # neither the put nor the get asked the store
        assert kept_pages.kept_body(KEY).body == "<p>built</p>"
        store.client.fail = False
        store.paused_until = time.monotonic() - 0.001  # the pause is over
        kept_pages.keep_body(KEY, "Ann", "<p>again</p>")
        assert store.client.calls == 2 and store.get(KEY) == Kept("Ann", "<p>again</p>")


def test_a_failing_put_pauses_the_store_too(app, store, caplog):
    with app.test_request_context(URL), caplog.at_level(logging.WARNING):
        store.client.fail = True
        store.put(KEY, Kept("Ann", "<p>"))
        assert store.paused_until > time.monotonic()
        assert "(TimeoutError)" in caplog.text
        assert store.get(KEY) is None and store.client.calls == 1


def test_only_the_stores_own_errors_are_a_miss(app, store, monkeypatch):
    def broken(name: str) -> None:
        raise RuntimeError("a bug, not an unreachable store")
    monkeypatch.setattr(store.client, "get", broken)
    with app.test_request_context(URL), pytest.raises(RuntimeError):
        store.get(KEY)
    assert store.paused_until == 0.0
