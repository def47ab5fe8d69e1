"""A live server and Debian's Chromium for browser tests (pytest-playwright's fixtures);
skipped, saying why, without one."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy.pool import NullPool
from werkzeug.serving import make_server

from tests.conftest import make_app

# Debian's chromium-headless-shell is the same Chromium build without the browser's own
# layer (what Playwright itself runs for headless tests): a new context, page or navigation
# costs it about a third of the CPU of the full browser. The full one is the fallback.
CHROMIUM = os.environ.get("CHROMIUM") or next(
    (found for name in ("chromium-headless-shell", "chromium", "chromium-browser")
     if (found := shutil.which(name))), None)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HERE = Path(__file__).resolve().parent
# Werkzeug's development server (the live server) leaves a file's response open when the
# browser drops the connection in the middle of sending it, as it may when a page moves on
# or the test's context closes (werkzeug/serving.py, connection_dropped): not ours to close.
# Only for browser tests, and only the files served from disk: under static/ and the
# Pyodide runtime's (a sent range of one is a raw FileIO: seen once at load 10, the
# service worker still fetching python_stdlib.zip.gz as the test ended).
LIVE_SERVER_LEAK = pytest.mark.filterwarnings(
    r"ignore:unclosed file <_io\.(BufferedReader|FileIO) name='[^']*/(static|pyodide)/[^']*'"
    r"( mode='rb' closefd=True)?>:ResourceWarning")


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(LIVE_SERVER_LEAK)


# The phone's copy of the core (Pyodide, docs/OFFLINE_CORE.md) is served to a test marked
# `core`: one whose phone goes without signal or on lie-fi (where a phone uses the core),
# or that looks at the core itself (its files kept, its ready note, its answers). The other
# browser tests test pages online, where the core is never asked; their servers run as one
# whose set-up could not fetch Pyodide (no `data-core`: the pages neither keep nor start
# it). Every new context fetched the 3.9 MB bundle again and a page left quiet for 3 s
# started it (4-5 s of Chromium's CPU): the browser tests took 765 s of the machine's CPU
# with the core served to all of them and 375 s with it served to none (docs/TESTING.md).
NO_CORE = HERE / "no-core"  # no such folder: no Pyodide found (views/core.py)


@pytest.fixture(autouse=True)
def _core_served_when_used(request, monkeypatch) -> None:
    """Without the `core` mark, this test's servers (in process, and gunicorn's, which
    inherit the environment) find no Pyodide bundle."""
    if request.node.get_closest_marker("core") is None:
        monkeypatch.setenv("PYODIDE_DIR", str(NO_CORE))


def browser_app(tmp_path):
    # Each request's connection closed when it is given back, not kept in a pool: a page the
    # browser still fetched as the test ended gives its connection back after the test's
    # engine was disposed, and a pooled one would then be collected open in a later test (a
    # ResourceWarning, seen against PostgreSQL under load). So each request connects anew,
    # and at load 19 a new PostgreSQL backend once took longer than the app's 2 s bound on a
    # connection: a save answered 503. The browser tests test the page; the bounds are
    # tested with a frozen and a restarted database (test_freeze.py, test_health.py).
    return make_app(tmp_path, tables=True, WTF_CSRF_ENABLED=True, SECRET_KEY="browser",
                    SQLALCHEMY_ENGINE_OPTIONS={"poolclass": NullPool}, DB_CONNECT_TIMEOUT=15)


@contextmanager
def serving(app) -> Iterator[str]:
    """`app` on a free loopback port, in a thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        # requests still in flight (a page the browser fetched in the background) finish
        # and give back their database connection before the test's engine is disposed:
        # one left checked out is closed only when collected, a ResourceWarning in a later
        # test (seen against PostgreSQL, twice; the second time at load 9-13, where a
        # background fetch of the core's files can outlast a short wait)
        deadline = time.monotonic() + 20
        for worker in threading.enumerate():
            if worker.name.endswith("(process_request_thread)"):
                worker.join(max(0.0, deadline - time.monotonic()))
        server.server_close()


@contextmanager
def held_answers(tmp_path, held) -> Iterator[tuple[str, threading.Event]]:
    """The app on a slow network: a request that `held` picks (text: a POST to a path ending
    in it; else a function of the request's WSGI environ) is answered by the app at once
    (a save stored, a page drawn), and its answer waits until the test lets it go; yields
    the base URL and `release`."""
    app = browser_app(tmp_path)
    inner = app.wsgi_app
    release = threading.Event()
    picks = held if callable(held) else (
        lambda environ: environ["REQUEST_METHOD"] == "POST"
        and environ["PATH_INFO"].endswith(held))

    def slow(environ, start_response):
        answer = inner(environ, start_response)
        if picks(environ):
            release.wait(30)
        return answer
    app.wsgi_app = slow
    with serving(app) as base:
        try:
            yield base, release
        finally:
            release.set()  # before the server waits for its requests to end


@pytest.fixture()
def live_server(tmp_path):
    with serving(browser_app(tmp_path)) as base:
        yield base


CADDY = shutil.which("caddy")
CADDYFILE = """{{
	admin off
	auto_https off
	grace_period 1s
	http_port {port}
	storage file_system {data}
}}
http://127.0.0.1:{port} {{
	handle /live/s/* {{
		reverse_proxy 127.0.0.1:{live} {{
			flush_interval -1
		}}
	}}
	handle {{
		reverse_proxy 127.0.0.1:{app}
	}}
}}
"""


@contextmanager
def pushing(app) -> Iterator[int]:
    """The live process's app (`tichu_scorer.live.stream`) for `app`, under uvicorn in a thread on
    a free loopback port; yields the port."""
    import socket

    import uvicorn

    from tichu_scorer.live.stream import Stream
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    pushes = Stream(app)
    server = uvicorn.Server(uvicorn.Config(pushes, log_level="warning", access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield listener.getsockname()[1]
    finally:
        pushes.close()  # as the live process does when told to stop
        server.should_exit = True
        thread.join(10)
        listener.close()


@pytest.fixture()
def streamed_server(tmp_path):
    """As production runs it: the app (here the development server) and the live process
    behind Caddy, which sends /live/s/ to the live process unbuffered (deploy/Caddyfile)."""
    if CADDY is None:
        pytest.skip("no caddy: apt-get install caddy (.ci/run does)")
    import socket
    import subprocess  # nosec B404

    from tests.conftest import free_port
    app = browser_app(tmp_path)
    with serving(app) as base, pushing(app) as live:
        home, port = tmp_path / "caddy", free_port()
        home.mkdir()
        (home / "Caddyfile").write_text(CADDYFILE.format(
            port=port, data=home / "data", live=live, app=base.rsplit(":", 1)[1]))
        caddy = subprocess.Popen(  # nosec B603
            [CADDY, "run", "--adapter", "caddyfile", "--config", str(home / "Caddyfile")],
            env=os.environ | {"HOME": str(home), "XDG_DATA_HOME": str(home / "xdg"),
                              "XDG_CONFIG_HOME": str(home / "xdg")},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or caddy.poll() is not None:
                        raise
                    time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            caddy.terminate()  # a stream still open ends after its grace period
            try:
                caddy.wait(10)
            except subprocess.TimeoutExpired:
                caddy.kill()
                caddy.wait(10)


def start_match(page, base: str, names=("Ann", "Bob", "Cy", "Dee")) -> str:
    """Start a four-player match through the form; returns the match page's URL."""
    page.goto(base + "/matches/new")
    for seat, name in enumerate(names):
        page.fill(f"#seat_{seat}", name)
    page.tap("button:has-text('Start match')")
    page.wait_for_selector("text=Add hand 1")
    return page.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's browser, page and contexts (each context traced, and a failing
    test's trace and screenshots kept under --output, see pyproject.toml) run Debian's
    Chromium, never a downloaded one."""
    if not CHROMIUM:
        pytest.skip("browser tests skipped: no Chromium found "
                    "(apt-get install chromium-headless-shell)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture()
def phone(new_context):
    """A page at a phone's size and touch; its script errors and console errors are kept in
    `page.errors`."""
    return watched(new_context(**PHONE).new_page())


def watched(page):
    """`page` with its script errors and console errors kept in `page.errors`. A 422 from the
    live preview (a hand not yet whole, asked of the server) is an answer, not a fault: every
    other console error is kept."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "status of 422" not in msg.text else None)
    page.errors = errors
    return page


# The match page's note that the phone is ready for no signal (ready.js): its words when
# shown, '' when hidden
READY = "Ready without signal ✓"
READY_DE = "Bereit ohne Netz ✓"
NOTE = ("() => { const n = document.getElementById('ready-note');"
        " return n && !n.hidden ? n.textContent : ''; }")

# An init script: the page's hearing of the live channel (live.js's tichu:live event),
# counted in window.heard on every page it runs on
HEARD = """document.addEventListener("tichu:live", () => {
  window.heard = (window.heard || 0) + 1; });"""


def until(page, predicate: str, arg=None, *, seconds: float = 20, what: str = "") -> None:
    """Wait until `predicate` (a JavaScript function, which may return a promise) is true in
    the page, asked again every 0.1 s, also while the page is loaded afresh. Not
    wait_for_function, which does not await a promise: it takes it for a true answer."""
    from playwright.sync_api import Error as PlaywrightError
    deadline = time.monotonic() + seconds
    while True:
        try:
            if page.evaluate(predicate, arg):
                return
        except PlaywrightError as exc:  # asked as the page went on to another
            if "context was destroyed" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"not so within {seconds} s: {what or predicate}")
        page.wait_for_timeout(100)


def ready_without_signal(page, *, ready: str = READY, seconds: float = 120) -> None:
    """Wait until the match page says it is ready for no signal, as a player would before
    the signal goes: the service worker keeps the core, and the core has started once."""
    until(page, f"() => ({NOTE})() === {ready!r}", seconds=seconds,
          what="the match page says it is ready for no signal")


def shot(page, name: str) -> None:
    """A picture of the page to look at (test-artifacts/), once the page has loaded.
    Chromium now and then refuses a capture while a new page's first frames are drawn
    ("Unable to capture screenshot", seen at load 14 right after a navigation) and takes
    the same picture when asked again: that refusal alone is asked again, after a frame."""
    from playwright.sync_api import Error as PlaywrightError
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_load_state()
    for attempt in range(3):
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            return
        except PlaywrightError as exc:
            if "Unable to capture screenshot" not in str(exc) or attempt == 2:
                raise
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")



# The looks a new page is seen in at 360×640: English and light, German and dark.
LOOKS = [("en", "light"), ("de", "dark")]


def dress(page, base: str, language: str, theme: str):
    """`page` in `language` (the lang cookie for `base`) and `theme` (its colour scheme)."""
    page.context.add_cookies([{"name": "lang", "value": language, "url": base}])
    page.emulate_media(color_scheme=theme)
    return page


def one_table(tmp_path, lineups, hands: int = 4):
    """A one-table instance (every phone its scorer) with a match per lineup in `lineups`,
    each of `hands` hands that team A won with a double victory and seat 0's Tichu (four:
    the match is over); returns the app and a test client that scores it."""
    from tests.conftest import hand_form, new_match, post_hand
    from tichu_scorer.extensions import db
    app = make_app(tmp_path, SINGLE_TABLE=True, SECRET_KEY="browser")
    with app.app_context():
        db.create_all()
    client = app.test_client()
    for names in lineups:
        url = new_match(client, names)
        for _ in range(hands):
            assert post_hand(client, url, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    return app, client


def start_tournament(director, base: str, entries, rounds: int, hands: int) -> None:
    """The director's phone starts a tournament ("Club cup") of `entries` through the form
    and draws its first round."""
    director.goto(base + "/tournaments/new")
    director.fill("#name", "Club cup")
    director.fill("#rounds", str(rounds))
    director.fill("#hands", str(hands))
    director.fill("#entries", "\n".join(entries))
    director.tap("button[type=submit]")
    director.tap("[data-draw] button")


def fits(page, what: str = "the page") -> None:
    """Nothing on `page` wider than the phone's screen (360 px): no sideways scroll."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], f"{what} is {width}px wide"
