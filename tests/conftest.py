"""A fresh app and database per test: SQLite in a temporary folder, or the PostgreSQL
database named by TEST_DATABASE_URL (emptied before each test). Under pytest-xdist every
worker has its own temporary folders, its own PostgreSQL database (TEST_DATABASE_URL's name
with the worker's suffix, created on first use) and its own range of ports."""

from __future__ import annotations

import functools
import gc
import itertools
import os
import re
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from hypothesis import settings
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import create_engine, engine_from_config, make_url, text
from sqlalchemy.util import LRUCache
from werkzeug.routing import Rule

from benchmarks.harness import kill
from tichu_scorer import create_app, health
from tichu_scorer.config import database_url
from tichu_scorer.extensions import db

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", … under xdist; "" alone
WORKER_INDEX = int(WORKER[2:]) if WORKER.startswith("gw") else 0

# CI replays the same generated cases on every run, so a landing never hinges on luck, and
# runs every property test at its full size; local runs explore new cases, fewer of them.
CI = bool(os.environ.get("CI"))
# No deadline: with parallel workers on two shared cores, one slow example is noise, not a
# finding (the benchmarks measure speed).
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile("ci" if CI else "dev")
LOCAL_FRACTION = 5  # locally a property test runs a fifth of its examples (at least 50)


CLOCK_SITE = os.path.join(os.path.dirname(__file__), "clock")
collect_ignore = ["clock"]  # loaded by Python at start-up, never collected (doctests)


def pytest_configure(config) -> None:
    """The markers. TEST_CLOCK=<ISO moment> runs the whole suite with every clock of the run
    moved there (tests/clock/sitecustomize.py), to show that no test passes only on today's
    date."""
    config.addinivalue_line("markers", "one_database: its outcome cannot depend on the "
                            "database (CI runs it against SQLite only)")
    config.addinivalue_line("markers", "every_database: a browser test of what the database "
                            "decides, run against PostgreSQL too")
    config.addinivalue_line("markers", "core: a browser test whose server serves the phone's "
                            "offline core (the others' pages have none: tests/browser/conftest.py)")
    moment = os.environ.get("TEST_CLOCK", "").strip()
    if not moment or os.environ.get("TEST_CLOCK_SHIFT"):
        return  # the real clock, or a process already moved at its start
    import time
    from datetime import datetime, timezone

    import time_machine
    when = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    os.environ["TEST_CLOCK_SHIFT"] = repr(when.timestamp() - time.time())
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [CLOCK_SITE, os.environ.get("PYTHONPATH")]))
    time_machine.travel(when, tick=True).start()
    time.time()  # it ticks from its first reading (tests/clock/sitecustomize.py)


def pytest_report_header(config) -> str | None:
    from tichu_scorer.clock import utcnow
    if os.environ.get("TEST_CLOCK_SHIFT"):
        return f"clock moved to {utcnow():%Y-%m-%d %H:%M:%S} UTC (TEST_CLOCK)"
    return None


# Tests whose outcome cannot depend on the database the app runs on, marked `one_database`
# here, so that CI's second run, against PostgreSQL, leaves them out (`.ci/run`: -m "not
# one_database"; docs/TESTING.md): the pure modules (engine, scoring, tournaments' draw),
# the checks of the source, the tests that start database servers of their own, and the
# browser tests, which test the page (the server's side of each is a view test that runs on
# both). A test on such a path that asks the database for what it decides (a browser test of
# a hand sent once or of two phones on one hand, the tournament director's stored rounds) is
# marked `every_database` and runs on both.
ONE_DATABASE = ("tests/browser/", "tests/engine/", "tests/scoring/", "tests/tournaments/",
                "tichu_scorer/", "tests/core/", "tests/test_clock.py",
                "tests/tables/", "tests/test_fetch_pyodide.py", "tests/test_freeze.py",
                "tests/test_i18n.py", "tests/test_pg_restart.py", "tests/test_purity.py",
                "tests/test_ratings.py", "tests/test_rule_ids.py", "tests/test_setup.py",
                "tests/test_static.py", "tests/forms/", "tests/test_format_words.py",
                "tests/test_harness.py", "tests/test_layout.py", "tests/test_cpu_by_kind.py",
                "tests/test_config.py",
                "tests/views/test_core_stdlib.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_database(item) -> bool:
    where = os.path.relpath(str(item.path), ROOT)
    return where.startswith(ONE_DATABASE) and item.get_closest_marker("every_database") is None


def pytest_collection_finish(session) -> None:
    """What a test process holds before its first test (the modules, the collected tests,
    the property tests' strategies) is kept out of the garbage collector's sweeps, and a
    young generation is swept every 10,000 allocations, not 700: the collector was 10-15 % of
    the view tests' CPU, and this takes 2-6 % off the in-process tests' CPU with coverage
    on (docs/TESTING.md). Garbage in a cycle is still collected, a little later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_collection_modifyitems(items) -> None:
    """Mark the `one_database` tests. Outside CI, scale down the examples of every property
    test, also those that set their own number (`@settings(max_examples=600)`), which a
    profile cannot change."""
    for item in items:
        if one_database(item):
            item.add_marker(pytest.mark.one_database)
    if CI:
        return
    for item in items:
        test = getattr(item, "function", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or getattr(test, "_scaled_for_local_run", False):
            continue  # not a property test, or one already scaled (a parametrized one)
        test._hypothesis_internal_use_settings = settings(
            own, max_examples=min(own.max_examples, max(own.max_examples // LOCAL_FRACTION, 50)))
        test._scaled_for_local_run = True


def worker_database(url: str) -> str:
    """TEST_DATABASE_URL for this xdist worker: the same server, the database name suffixed
    with the worker id (created if missing), since every test drops the whole schema."""
    if not url or not WORKER:
        return url
    base = make_url(url)
    mine = base.set(database=f"{base.database}_{WORKER}")
    engine = create_engine(base.set(drivername="postgresql+psycopg"),
                           isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                  {"n": mine.database}).first()
            if not exists:
                conn.exec_driver_sql(f'CREATE DATABASE "{mine.database}"')
    finally:
        engine.dispose()
    return mine.render_as_string(hide_password=False)


TEST_DATABASE_URL = worker_database(os.environ.get("TEST_DATABASE_URL", "").strip())

# Ports for servers a test starts itself (gunicorn): below the kernel's ephemeral range, a
# block of 500 per worker, started at an offset of this run's pid so that two suites run
# at once (two checkouts) rarely meet; each one is checked free before it is handed out.
# TEST_PORT_BLOCKS moves a run's workers to later blocks: CI runs its SQLite and
# PostgreSQL runs at once, each in blocks of its own (.ci/run).
_PORT_BLOCK = 500
_PORT_BASE = 20000 + _PORT_BLOCK * (
    (WORKER_INDEX + int(os.environ.get("TEST_PORT_BLOCKS") or 0)) % 20)
_ports = itertools.count(os.getpid() % _PORT_BLOCK)


def free_port() -> int:
    """A port of this worker's block that nothing listens on now."""
    for _ in range(_PORT_BLOCK):
        port = _PORT_BASE + next(_ports) % _PORT_BLOCK
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {_PORT_BASE}..{_PORT_BASE + _PORT_BLOCK - 1}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """Stop a gunicorn server gracefully (its requests in flight finished), or kill it when
    it does not stop in time."""
    try:
        kill(server, signal.SIGTERM)
    except subprocess.TimeoutExpired:
        kill(server)


def database_uri(tmp_path) -> str:
    if TEST_DATABASE_URL:
        os.environ["DATABASE_URL"] = TEST_DATABASE_URL
        return database_url(str(tmp_path))
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


def empty_database(app) -> None:
    """PostgreSQL: drop every table (migrations included) so each test starts clean."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        return
    with app.app_context(), db.engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")


# The app's tables, made for a test as create_all makes them but cheaper than its DDL (about
# 20-35 ms a test on SQLite, 40 on PostgreSQL, a test's whole set-up beside it): on SQLite
# a copy of a database file made once per process; on PostgreSQL the worker's tables
# emptied (TRUNCATE ... RESTART IDENTITY) where they are the ones this function made and
# stamped with the tables' DDL, else dropped and made again (empty_database drops the stamp
# with the rest, so a migration test or a second app never leaves tables of another kind).
STAMP = "test_schema_stamp"
_schema_file: list[bytes] = []


@functools.cache
def _ddl() -> str:
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateIndex, CreateTable
    dialect = postgresql.dialect()
    return "".join(str(CreateTable(t).compile(dialect=dialect)) + "".join(
        str(CreateIndex(i).compile(dialect=dialect)) for i in sorted(t.indexes, key=str))
        for t in db.metadata.sorted_tables)


_emptied: list[str] = []


def _emptying(conn) -> str:
    """The statements that empty the worker's tables and start their ids again at 1: each
    table's rows deleted, the dependent first, and every sequence set back. For a few rows
    this is a quarter of TRUNCATE's time (which makes new files for every table and index:
    about 25 ms a test)."""
    if not _emptied:
        sequences = conn.exec_driver_sql(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'").scalars()
        _emptied.append("".join(
            [f'DELETE FROM "{t.name}";' for t in reversed(db.metadata.sorted_tables)]
            + [f"""SELECT setval('"{name}"', 1, false);""" for name in sequences]))
    return _emptied[0]


def make_tables(app) -> None:
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    with app.app_context():
        if uri.startswith("sqlite:///") and not uri.startswith("sqlite:///:"):
            path = Path(uri.removeprefix("sqlite:///"))
            if not _schema_file:
                db.create_all()
                db.engine.dispose()  # closed: the file holds every page
                _schema_file.append(path.read_bytes())
            elif not path.exists():
                path.write_bytes(_schema_file[0])
            else:
                db.create_all()
            return
        if not uri.startswith("postgresql"):
            db.create_all()
            return
        stamp = _ddl()
        with db.engine.begin() as conn:
            found = conn.exec_driver_sql(
                "SELECT to_regclass('public.test_schema_stamp') IS NOT NULL").scalar()
            if found and conn.exec_driver_sql(f"SELECT ddl FROM {STAMP}").scalar() == stamp:
                conn.exec_driver_sql(_emptying(conn))
                return
        empty_database(app)
        db.create_all()
        with db.engine.begin() as conn:
            conn.exec_driver_sql(f"CREATE TABLE {STAMP} (ddl text NOT NULL)")
            conn.exec_driver_sql(f"INSERT INTO {STAMP} (ddl) VALUES (%(ddl)s)", {"ddl": stamp})


# Werkzeug writes and compiles two Python functions for every route of every app (the URL
# builders: about 20 ms of each test's app, half its making). A builder's code depends only
# on its rule's text, its defaults and its converters' kinds; it reads everything else from
# the rule it is bound to. Here each is made once per test process and bound to every rule
# that has the same. Tests only: the app itself is made once per process.
_builders: dict[tuple, object] = {}
_make_builder = Rule._compile_builder


def _shared_builder(rule: Rule, append_unknown: bool = True):
    converters = tuple((name, type(found)) for name, found in rule._converters.items())
    key = (rule.rule, tuple(rule._trace), repr(rule.defaults), converters, append_unknown)
    if key not in _builders:
        _builders[key] = _make_builder(rule, append_unknown)
    return _builders[key]


Rule._compile_builder = _shared_builder  # type: ignore[method-assign]


class SharedCompiled(LRUCache):
    """Each test's app makes its own engine, and an engine compiles every SQL statement
    again (its compiled cache is its own, keyed by its own dialect): about a third of a
    view test's CPU. The engines of a test process that are of one kind (dialect class and
    options) share this cache, as every request of a running app shares its one engine's:
    the dialect in a statement's key stands for its kind. Each engine keeps its own
    dialect, with its own events (`database.bound`'s), its pool and connections."""

    def __init__(self, kind: tuple) -> None:
        super().__init__(4000)
        self.kind = kind

    def _key(self, key: tuple) -> tuple:
        return (self.kind, *key[1:])

    def get(self, key, default=None):
        return super().get(self._key(key), default)

    def __setitem__(self, key, value) -> None:
        super().__setitem__(self._key(key), value)


_compiled: dict[tuple, SharedCompiled] = {}
_POOL_OPTIONS = ("url", "poolclass", "connect_args", "pool_pre_ping", "pool_size",
                 "pool_recycle", "pool_timeout", "max_overflow")


def _engine_sharing_compiled(bind_key, options, app):
    engine = engine_from_config(options, prefix="")
    kind = (type(engine.dialect),
            repr(sorted((k, repr(v)) for k, v in options.items() if k not in _POOL_OPTIONS)))
    engine._compiled_cache = _compiled.setdefault(kind, SharedCompiled(kind))
    return engine


db._make_engine = _engine_sharing_compiled


class SharedTemplates(BytecodeCache):
    """The compiled templates of every app this test process makes. Each test still gets a
    fresh app, but compiling the templates a page uses costs a third of a second, more
    than the rest of a typical view test: here each is compiled once per process. Jinja
    compiles a template again when its source changed (it checks the source's checksum),
    and apps with other Jinja extensions keep apart."""

    def __init__(self) -> None:
        self.code: dict[tuple, bytes] = {}

    def _key(self, bucket: Bucket) -> tuple:
        return tuple(sorted(bucket.environment.extensions)), bucket.key

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.code.get(self._key(bucket))
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[self._key(bucket)] = bucket.bytecode_to_string()


TEMPLATES = SharedTemplates()

_apps: list = []  # the apps made during the current test


class BufferedClient(FlaskClient):
    """The test client reads each answer whole and closes it, as a browser does: a static
    file sent from disk is not left open (a ResourceWarning, and warnings fail tests)."""

    def open(self, *args, **kwargs):  # noqa: A003 - the test client's own method name
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


def make_app(tmp_path, *, tables: bool = False, **config):
    """A test's app on its own database (PostgreSQL: the worker's, emptied): without tables,
    or with the app's tables (`tables=True`, as `db.create_all()` would make them)."""
    settings = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                "RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_uri(tmp_path),
                "PAGE_STORE_URI": ""}  # match pages kept per process unless a test shares
    app = create_app(settings | config, instance_path=str(tmp_path / "instance"))
    app.test_client_class = BufferedClient
    app.jinja_env.bytecode_cache = TEMPLATES
    if tables:
        make_tables(app)
    else:
        empty_database(app)
    _apps.append(app)
    return app


def close_app(app) -> None:
    """Close the database connections of a test's app: once its heartbeat writes still on
    their way are done (`health.finish`), since one that outlived its /healthz would give
    its connection back to the pool after this dropped it, left open to the collector: a
    ResourceWarning in whichever later test the collector runs (docs/TESTING.md, flakes)."""
    health.finish(app)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(autouse=True)
def _close_connections():
    """After each test, close the database connections of every app it made (directly or
    through a fixture): an open one is a ResourceWarning, and warnings fail tests."""
    yield
    while _apps:
        close_app(_apps.pop())


@pytest.fixture()
def app(tmp_path):
    return make_app(tmp_path, tables=True)  # closed after the test (_close_connections)


@pytest.fixture()
def client(app):
    return app.test_client()


NAMES = ["Ann", "Bob", "Cy", "Dee"]


def new_match(client, names=NAMES, target="1000", custom=""):
    """Start a match through the form; returns its page URL."""
    data = {f"seat_{i}": n for i, n in enumerate(names)}
    data |= {"target": target, "custom_target": custom}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def hand_form(out=(), calls=None, a=None, b=None, wish=None):
    """Form data for the hand page."""
    data = {f"place_{i + 1}": str(s) for i, s in enumerate(out)}
    for seat, call in (calls or {}).items():
        data[f"call_{seat}"] = call
    if a is not None:
        data["card_a"] = str(a)
    if b is not None:
        data["card_b"] = str(b)
    if wish is not None:
        data["wish_offender"] = str(wish)
    return data


def post_hand(client, url, data, **kwargs):
    """Post a new hand as a phone that just opened the form: it carries the number of the
    next hand (unless `data` names one)."""
    if isinstance(data, dict) and "number" not in data:
        state = client.get(url + "/revision")
        if state.status_code == 200:
            data = data | {"number": str(state.get_json()["hands"] + 1)}
    return client.post(url + "/hands/new", data=data, **kwargs)


def same_phone(client, app):
    """A client of `app` with the session cookie of `client` (the same phone, through
    another app process)."""
    twin = app.test_client()
    twin.set_cookie("session", client.get_cookie("session").value)
    return twin


def match_key(url: str) -> str:
    return re.search(r"/matches/([A-Za-z0-9_-]+)", url).group(1)


def match_id(url: str) -> int:
    """The database id of the match at `url` (inside an app context)."""
    from tichu_scorer.models import Match
    return db.session.execute(db.select(Match.id).filter_by(key=match_key(url))).scalar_one()
