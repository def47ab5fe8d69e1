"""The app of the checkout gunicorn runs in (its `wsgi.py`), each save of a hand (a POST to
…/hands/new) under cProfile, timed in the CPU time of the thread that serves it (a loaded
machine's waits are left out); the totals are written to PROFILE_OUT when the worker exits
(`bench_save.py --profile`)."""

from __future__ import annotations

import atexit
import cProfile
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from wsgi import app as inner

profiler = cProfile.Profile(time.thread_time)
atexit.register(lambda: profiler.dump_stats(os.environ["PROFILE_OUT"]))


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("REQUEST_METHOD") != "POST" or not environ.get(
            "PATH_INFO", "").endswith("/hands/new"):
        return inner(environ, start_response)  # type: ignore[no-any-return]
    profiler.enable()
    try:
        return list(inner(environ, start_response))
    finally:
        profiler.disable()
