"""The set-up is quiet and pinned: pip itself pinned, logs without terminal colour codes; the
server's settings (gunicorn.conf.py): workers, threads, access log; a failing browser test
keeps its trace and screenshots, out of git."""

from __future__ import annotations

import io
import logging
import os
import re
import runpy
import subprocess
import tomllib
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from gunicorn.config import Config
from gunicorn.glogging import Logger

from tichu_scorer import _plain_text

ROOT = Path(__file__).resolve().parent.parent


def test_pip_is_pinned_not_upgraded():
    makefile = (ROOT / "Makefile").read_text()
    assert "--upgrade pip" not in makefile
    assert re.search(r"^PIP_VERSION := \d+\.\d+", makefile, re.M)
    assert '"pip==$(PIP_VERSION)"' in makefile


def test_development_server_lines_reach_the_log_without_colour_codes():
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1,
                               "\x1b[31m\x1b[1mWARNING: development server\x1b[0m %s",
                               ("\x1b[33m404\x1b[0m",), None)
    assert _plain_text(record)
    assert record.getMessage() == "WARNING: development server 404"


def test_development_server_lines_keep_no_query_string():
    """A query may carry a scorer key (/join?key=…): the development server's request line
    reaches the log with the path only, as gunicorn's does."""
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '%s - - [%s] "%s" %s %s',
                               ("127.0.0.1", "23/Nov/2026 20:00:00",
                                "\x1b[32mGET /join?key=s4RQK9K_asfZQ4k6 HTTP/1.1\x1b[0m",
                                "302", "-"), None)
    assert _plain_text(record)
    line = record.getMessage()
    assert "s4RQK9K" not in line and '"GET /join HTTP/1.1" 302' in line


def server_settings(monkeypatch, **env: str) -> dict:
    for name in ("REDIS_URL", "RATELIMIT_STORAGE_URI", "WEB_CONCURRENCY", "THREADS",
                 "ACCESS_LOG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_runs_single_threaded_workers_with_shared_limits(monkeypatch):
    """With Redis: two processes per core and two more, one thread each (README, Load);
    without: one worker with threads, so that the in-memory limits stay exact."""
    shared = server_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:1/0")
    cores = len(os.sched_getaffinity(0))
    assert (shared["workers"], shared["threads"]) == (min(2 * cores + 2, 12), 1)
    assert shared["usable_cores"]() <= cores
    alone = server_settings(monkeypatch)
    assert (alone["workers"], alone["threads"]) == (1, 8)
    chosen = server_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:1/0",
                             WEB_CONCURRENCY="3", THREADS="2")
    assert (chosen["workers"], chosen["threads"]) == (3, 2)


def test_the_worker_count_follows_a_containers_cpu_quota(monkeypatch):
    """On a 64-core host a container limited to 2 CPUs starts 6 workers, not 130; without
    a quota the count is capped (each worker holds its own database connections)."""
    import builtins
    real_open = builtins.open
    quota = {"text": "200000 100000\n"}

    def fake_open(path, *args, **kwargs):
        if str(path) == "/sys/fs/cgroup/cpu.max":
            return io.StringIO(quota["text"])
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(64)))
    monkeypatch.setattr(builtins, "open", fake_open)
    assert server_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:1/0")["workers"] == 6
    quota["text"] = "max 100000\n"
    assert server_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:1/0")["workers"] == 12


def test_an_empty_access_log_setting_turns_the_access_log_off(monkeypatch):
    """ACCESS_LOG= (behind a proxy that logs each request): gunicorn writes no access line;
    unset, it writes them to standard output."""
    assert server_settings(monkeypatch)["accesslog"] == "-"
    settings = server_settings(monkeypatch, ACCESS_LOG="")
    assert settings["accesslog"] is None
    written: list[tuple] = []
    for value, lines in ((settings["accesslog"], 0), ("-", 1)):
        config = Config()
        config.set("accesslog", value)
        logger = Logger(config)
        logger.access_log = SimpleNamespace(info=lambda *args: written.append(args))
        logger.access(SimpleNamespace(status="200 OK", sent=0, headers=[]),
                      SimpleNamespace(headers=[]), {"REQUEST_METHOD": "GET", "RAW_URI": "/",
                                                    "SERVER_PROTOCOL": "HTTP/1.1"},
                      timedelta(milliseconds=1))
        assert len(written) == lines
        written.clear()


def test_the_access_log_keeps_no_viewer_code(monkeypatch):
    """A viewer link (/v/<code>) opens its match to whoever holds it, and /join?code=… too:
    gunicorn's access line, as gunicorn.conf.py sets it up, keeps neither code."""
    settings = server_settings(monkeypatch)
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", settings["access_log_format"])
    logger = settings["logger_class"](config)
    written: list[str] = []
    logger.access_log = SimpleNamespace(info=lambda msg, atoms: written.append(msg % atoms))
    for path, query in (("/v/AB12CD34", ""), ("/v/AB12CD34/", ""), ("/join", "code=AB12CD34"),
                        ("/join", "key=s4RQK9K_asfZQ4k6")):
        logger.access(SimpleNamespace(status="200 OK", sent=0, headers=[]),
                      SimpleNamespace(headers=[]),
                      {"REQUEST_METHOD": "GET", "RAW_URI": f"{path}?{query}",
                       "PATH_INFO": path, "QUERY_STRING": query,
                       "SERVER_PROTOCOL": "HTTP/1.1"}, timedelta(milliseconds=1))
    assert len(written) == 4
    assert not any("AB12CD34" in line or "s4RQK9K" in line for line in written), written
    assert '"GET /v/… HTTP/1.1" 200' in written[0] and '"GET /join HTTP/1.1"' in written[2]


def test_development_server_lines_keep_no_viewer_code():
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '%s - - [%s] "%s" %s %s',
                               ("127.0.0.1", "23/Nov/2026 20:00:00",
                                "GET /v/AB12CD34 HTTP/1.1", "200", "-"), None)
    assert _plain_text(record)
    assert "AB12CD34" not in record.getMessage()


def test_a_failing_browser_test_keeps_its_screenshots_out_of_git(pytestconfig):
    """pytest-playwright keeps a screenshot of each page when a test fails, in a folder git
    ignores; the run's options record no trace unless one is asked for (a quarter of the
    browser tests' time: docs/TESTING.md), and a trace asked for lands there too."""
    assert pytestconfig.getoption("--screenshot") in ("only-on-failure", "on")
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["addopts"].split()
    assert "--tracing" not in options and "--screenshot" in options
    for kept in ("screenshot.png", "trace.zip"):
        path = Path(pytestconfig.getoption("--output")).resolve() / "some-test" / kept
        assert path.is_relative_to(ROOT)
        ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT,
                                 check=False)
        assert ignored.returncode == 0, f"{path.parent.parent} is not ignored by git"


def test_the_readme_stays_short_for_the_people_who_use_and_run_the_app():
    """The README is for players and hosts, at most 200 lines; records live in docs/."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
