"""The CPU a command costs this machine, by kind of process (docs/TESTING.md, "Where the CPU
goes"). `/usr/bin/time` counts only the processes its command waits for, and their waited-for
children: Chromium's renderer and helper processes and a database server started as a daemon
escape it (a quiet run of the browser tests: 695 s of CPU by the machine's count, 319 s by
`time`'s). This reads the machine's own count instead:

    .venv/bin/python tools/cpu_by_kind.py -- make test PYTEST_ARGS="tests/browser"

It runs the command, reads every process's CPU from /proc every half second meanwhile, and
prints, when the command has ended, the CPU each kind of process used in that time (a
process seen once or more: its CPU from the first reading to the last, or from its start
when it began meanwhile), beside the whole machine's busy time from /proc/stat. A process
that lived less than half a second between two readings is missed; the gap between the
machine's figure and the sum says how much that was (and anything else on the machine).
The reading itself costs about 1 % of a core. Linux only."""

from __future__ import annotations

import collections
import os
import subprocess  # nosec B404
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
EVERY = 0.5


def busy_seconds() -> float:
    """The machine's busy CPU time so far, all cores (/proc/stat: all but idle and iowait)."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICK


def kind(comm: str, args: list[str]) -> str:
    """A process's kind: Chromium's by its --type, Python's by what it runs, else its name."""
    if "chromium" in (args[0] if args else "") or comm.startswith("chromium"):
        role = next((a.removeprefix("--type=") for a in args if a.startswith("--type=")),
                    "browser")
        return f"chromium {role}"
    if comm.startswith("python") or os.path.basename(args[0] if args else "").startswith(
            "python"):
        if "gunicorn" in args:
            return "python gunicorn (test servers)"
        if "-c" in args and any("exec(eval(" in a for a in args):
            return "python pytest-xdist worker"
        if any(a.endswith("pytest") for a in args[:3]) or "pytest" in args:
            return "python pytest (controller)"
        return "python " + what_python_runs(args)
    if comm.startswith(("postgres", "postmaster")):
        return "postgresql server"
    return comm


def what_python_runs(args: list[str]) -> str:
    """What a Python process runs: `-m module`, `-c`, or its script's name."""
    rest = args[1:]
    while rest and rest[0].startswith("-") and rest[0] not in ("-m", "-c"):
        rest = rest[2:] if rest[0] in ("-W", "-X") else rest[1:]
    if not rest:
        return "(interactive)"
    if rest[0] == "-m" and len(rest) > 1:
        return f"-m {rest[1]}"
    if rest[0] == "-c":
        return "-c"
    return os.path.basename(rest[0])


def read_all() -> dict[tuple[str, str], tuple[str, float]]:
    """Every process now: (pid, start time) → (kind, CPU seconds so far)."""
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline") as f:
                # Chromium's zygote children write their command line as one string
                args = f.read().replace("\0", " ").split()
        except OSError:
            continue  # ended meanwhile
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICK  # utime + stime
        # an ended process not yet reaped keeps its CPU but no command line: "" until named
        found[(pid, fields[19])] = (kind(comm, args) if args else "", cpu)
    return found


def main(command: list[str]) -> int:
    before = read_all()  # what ran before the command: only its CPU from now on counts
    first: dict[tuple[str, str], float] = {key: cpu for key, (_, cpu) in before.items()}
    last: dict[tuple[str, str], tuple[str, float]] = {}
    machine, began = busy_seconds(), time.monotonic()
    child = subprocess.Popen(command)  # nosec B603
    while child.poll() is None:
        for key, (what, cpu) in read_all().items():
            last[key] = (what or (last[key][0] if key in last else "(ended unnamed)"), cpu)
        time.sleep(EVERY)
    machine, wall = busy_seconds() - machine, time.monotonic() - began
    by_kind: collections.defaultdict[str, float] = collections.defaultdict(float)
    for key, (what, cpu) in last.items():
        by_kind[what] += cpu - first.get(key, 0.0)
    counted = sum(by_kind.values())
    print(f"\nCPU by kind of process over {wall:.0f} s (the command exited {child.returncode}):",
          file=sys.stderr)
    for what, cpu in sorted(by_kind.items(), key=lambda item: -item[1]):
        if cpu >= 0.5:
            print(f"{cpu:9.1f} s  {100 * cpu / max(machine, 1e-9):5.1f} %  {what}",
                  file=sys.stderr)
    print(f"{counted:9.1f} s  in all the processes seen; the machine was busy {machine:.1f} s "
          f"({100 * machine / (wall * (os.cpu_count() or 1)):.1f} % of its "
          f"{os.cpu_count()} cores)", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    sys.exit(main(args))
