"""The set-up is quiet and pinned: pip itself pinned, logs without terminal colour codes."""

from __future__ import annotations

import logging
import re
from pathlib import Path

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
