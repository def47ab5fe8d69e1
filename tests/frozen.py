"""Servers a test can freeze as a stalled VM or storage would: a throwaway PostgreSQL cluster
and a throwaway redis-server, each stopped with SIGSTOP (every process of it) and continued
with SIGCONT. The shared PostgreSQL of TEST_DATABASE_URL is never touched."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from benchmarks.harness import kill
from tests.conftest import free_port

PG_BINS = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [
    int(n) if n.isdigit() else 0 for n in p.split("/")[-2].split(".")])
PG_BIN = PG_BINS[-1] if PG_BINS else (os.path.dirname(shutil.which("initdb") or "") or None)
NO_POSTGRES = "PostgreSQL is not installed (apt-get install postgresql; .ci/run does)"
NO_REDIS = "redis-server is not installed (apt-get install redis-server; .ci/run does)"


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (a postmaster's backends and helpers)."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue  # ended meanwhile
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            found.append(int(stat.split("/")[2]))
    return found


class Frozen:
    """A server process (and its children) that can be stopped and continued whole."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def freeze(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)  # first: it forks no new backend meanwhile
        for child in children(self.pid):
            os.kill(child, signal.SIGSTOP)

    def thaw(self) -> None:
        for child in children(self.pid):
            os.kill(child, signal.SIGCONT)
        os.kill(self.pid, signal.SIGCONT)

    @contextmanager
    def frozen(self) -> Iterator[None]:
        self.freeze()
        try:
            yield
        finally:
            self.thaw()


def _as_postgres(*args: str) -> None:
    command = list(args)
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@contextmanager
def postgres() -> Iterator[tuple[str, Frozen]]:
    """A throwaway PostgreSQL cluster on loopback: (its URL, its postmaster)."""
    assert PG_BIN is not None, NO_POSTGRES
    root = tempfile.mkdtemp(prefix="pgf.")  # short: the server's Unix socket lives here
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data = f"{root}/data"
    _as_postgres(f"{PG_BIN}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-N")
    port = free_port()
    _as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-l", f"{root}/log", "-w", "-t", "60", "-o",
                 f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    try:
        pid = int(Path(f"{data}/postmaster.pid").read_text().split()[0])
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", Frozen(pid)
    finally:
        try:
            os.kill(pid, signal.SIGCONT)  # a stopped server cannot be stopped
            for child in children(pid):
                os.kill(child, signal.SIGCONT)
        except (ProcessLookupError, UnboundLocalError):
            pass
        _as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def redis_server() -> Iterator[tuple[str, Frozen]]:
    """A throwaway redis-server on loopback: (its URL, its process)."""
    folder = tempfile.mkdtemp(prefix="redisf.")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", folder],
                            stdout=subprocess.DEVNULL, start_new_session=True)
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", Frozen(proc.pid)
    finally:
        client.close()
        try:
            os.kill(proc.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
        kill(proc)
        shutil.rmtree(folder, ignore_errors=True)
