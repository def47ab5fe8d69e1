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
