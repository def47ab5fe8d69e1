"""tools/cpu_by_kind.py: the CPU a command costs the machine, by kind of process."""

import subprocess  # nosec B404
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a second of CPU, then a pause of its own, so that a reading sees all of it before it ends
SPIN = ("import time\nend = time.process_time() + 1.0\nwhile time.process_time() < end: pass\n"
        "time.sleep(1.5)")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "cpu_by_kind.py"), "--",  # nosec
                           *command], capture_output=True, text=True, timeout=120)


def test_a_grandchild_that_spins_a_second_is_counted_under_its_kind():
    """The command's own child spends a second of CPU in a grandchild it does not wait for
    (as Chromium's renderers escape `time`): counted all the same."""
    spawn = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
             f"{SPIN!r}], stdout=subprocess.PIPE); p.stdout.read()")  # its end, never waited
    done = run(sys.executable, "-c", spawn)
    assert done.returncode == 0, done.stderr
    python = next(line for line in done.stderr.splitlines() if line.endswith("python -c"))
    assert float(python.split()[0]) >= 0.9, done.stderr
    assert "the machine was busy" in done.stderr


def test_the_commands_exit_status_is_its_own():
    assert run(sys.executable, "-c", "raise SystemExit(3)").returncode == 3


def test_a_process_read_as_it_ended_keeps_the_kind_it_was_read_as():
    """An ended process not yet reaped has no command line: its CPU stays with its kind.
    (Read as it ends, a spinner was once counted as a Python process of no script.)"""
    spawn = ("import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', "
             f"{SPIN!r}]); time.sleep(3.5); p.wait()")  # unreaped for about a second
    done = run(sys.executable, "-c", spawn)
    assert done.returncode == 0, done.stderr
    assert "(ended unnamed)" not in done.stderr and "(interactive)" not in done.stderr
    python = next(line for line in done.stderr.splitlines() if line.endswith("python -c"))
    assert float(python.split()[0]) >= 0.9, done.stderr
