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
