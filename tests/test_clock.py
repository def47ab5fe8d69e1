"""One clock: the app reads the date and time only through `tichu_scorer.clock`, so that a
test moves every reading at once (time-machine) and none is left on the real calendar."""

from __future__ import annotations

import ast
from datetime import date, datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import time_machine

from tichu_scorer import clock

PACKAGE = Path(clock.__file__).resolve().parent
# readings of the wall clock; intervals (monotonic, perf_counter, thread_time) are not dates
WALL = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"),
        ("date", "today"), ("time", "time"), ("time", "time_ns"), ("time", "localtime"),
        ("time", "gmtime"), ("time", "ctime")}


def wall_clock_readings(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id, node.attr) in WALL:
            found.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
        if isinstance(node, ast.ImportFrom) and node.module == "time" and any(
                alias.name in {"time", "time_ns", "localtime", "gmtime"} for alias in node.names):
            found.append(f"from time import … (line {node.lineno})")
    return found


def test_the_scan_finds_a_reading():
    assert wall_clock_readings("import time\nx = time.time()\n") == ["time.time (line 2)"]
    assert wall_clock_readings("from datetime import date\ndate.today()") == [
        "date.today (line 2)"]
    assert wall_clock_readings("import time\nt = time.monotonic()\n") == []


def test_the_app_reads_the_wall_clock_only_through_its_clock():
    offenders = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py")) if path.name != "clock.py"
        if (found := wall_clock_readings(path.read_text(encoding="utf-8")))}
    assert offenders == {}


@time_machine.travel(datetime(2028, 2, 29, 23, 59, 30, tzinfo=ZoneInfo("Europe/Berlin")),
                     tick=False)
def test_the_clock_follows_time_machine_on_29_february_in_berlin():
    assert clock.today() == date(2028, 2, 29)  # the server's local date
    assert clock.utcnow() == datetime(2028, 2, 29, 22, 59, 30)  # stored in UTC
    assert clock.timestamp() == datetime(2028, 2, 29, 22, 59, 30,
                                         tzinfo=timezone.utc).timestamp()


def test_every_process_of_a_moved_run_keeps_the_same_clock():
    """TEST_CLOCK: each process moves its clock as it starts (tests/clock/sitecustomize.py),
    and two processes read the same moved time whatever they did first. A server whose first
    reading came late (its imports) once lagged by that delay, and read a session another
    server had just signed as signed in the future. The system's monotonic clock, which
    nothing moves, is the common ruler."""
    import os
    import subprocess
    import sys

    from tests.conftest import CLOCK_SITE
    env = dict(os.environ, TEST_CLOCK_SHIFT=repr(400 * 86400.0),
               PYTHONPATH=os.pathsep.join(filter(None, [CLOCK_SITE,
                                                        os.environ.get("PYTHONPATH")])))
    offsets = []
    for late in (0.0, 1.5):  # seconds before the process's first reading of the clock
        read = (f"import time; time.sleep({late}); "
                "print(repr(time.time() - time.monotonic()))")
        out = subprocess.run([sys.executable, "-c", read], env=env, capture_output=True,
                             text=True, check=True, timeout=60).stdout
        offsets.append(float(out))
    assert abs(offsets[1] - offsets[0]) < 0.25, offsets
