"""Production server settings: `gunicorn -c gunicorn.conf.py wsgi:app` (see README)."""

import os

from gunicorn.glogging import Logger

from tichu_scorer import redact_path

bind = os.environ.get("BIND", "127.0.0.1:8000")
# Rate limits hold across workers only in a shared store (REDIS_URL). With one, processes
# serve the requests: two per core and two more (a worker waiting on the database leaves its
# core to another), one thread each, since threads of one worker wait for each other's
# interpreter lock (README, "Delivery and load over two servers", compares 6 x 1 with 4 x 2
# and others at 200 tables). Without one, a single worker with threads keeps the limits exact;
# WEB_CONCURRENCY and THREADS override (more workers without Redis are warned about).
SHARED_LIMITS = bool(os.environ.get("REDIS_URL") or os.environ.get(
    "RATELIMIT_STORAGE_URI", "memory://").strip() not in ("", "memory://"))


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity, and a container's CPU quota
    (cgroup v2 `cpu.max`) when one is set, not the host's count."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    try:
        quota, period = open("/sys/fs/cgroup/cpu.max").read().split()[:2]
    except (OSError, ValueError):
        return max(cores, 1)
    if quota != "max":
        cores = min(cores, -(-int(quota) // int(period)))  # rounded up
    return max(cores, 1)


# Each worker keeps its own database connections: the cap keeps two servers' workers well
# inside PostgreSQL's default max_connections (100) on a big host.
PROCESSES = min(2 * usable_cores() + 2, 12)
workers = int(os.environ.get("WEB_CONCURRENCY", str(PROCESSES) if SHARED_LIMITS else "1"))
worker_class = "gthread"  # keep-alive connections wait in its poller, not in a thread
threads = int(os.environ.get("THREADS", "1" if SHARED_LIMITS else "8"))
# A worker silent for `timeout` seconds is killed and replaced; a restart or deploy lets
# requests in flight finish for `graceful_timeout`. Each request's waits for the database are
# bounded well below that, on the client's side (config.py, tichu_scorer/database.py: a pooled
# connection 1 s, a new one 2 s, each reply 1.5 s and a 0.5 s probe, then 2 s left alone), so
# that a stalled or frozen database gives 503s, not hung workers (docs/security-faults.md).
timeout = int(os.environ.get("TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# gunicorn's control socket (runtime management through `gunicornc`) is not used here: off,
# so that two servers on one machine (the tests' many) never share its one default path.
control_socket_disable = True
# The app is made once, in the master, and each worker is forked from it: a worker starts in
# milliseconds, not the second and more each one took to import and make the app (every
# start, and every recycling below), and the workers share the master's memory until they
# write to it. Each worker opens its own database connections (`database.per_process`). A
# new version of the code takes a restart (docs/DEPLOY.md), as it did.
preload_app = True
max_requests = 5000  # recycle workers now and then
max_requests_jitter = 500
# "-": standard output; ACCESS_LOG= (empty) turns it off where a proxy in front logs each
# request anyway: formatting and writing the line costs about 0.2 ms of CPU per request.
accesslog = os.environ.get("ACCESS_LOG", "-") or None
# The path without its query string (%(U)s, not the request line %(r)s) and no referrer:
# a query or a previous page's address may carry a scorer key, which must not reach a log.
# A path that is a secret itself (a viewer link, /v/<code>) is written without it.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s" %(M)sms'


class RedactingLogger(Logger):
    """gunicorn's logger, with the path of each access line as `redact_path` leaves it."""

    def atoms(self, resp, req, environ, request_time):  # noqa: ANN001, ANN201 (gunicorn's)
        found = super().atoms(resp, req, environ, request_time)
        found["U"] = redact_path(found["U"] or "")
        return found


logger_class = RedactingLogger
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


# The live process (`tichu_scorer/live/stream.py`: the live pages' Server-Sent Events streams,
# /live/s/…, which the proxy sends to it) runs beside gunicorn when LIVE_BIND names its
# address (`make serve`: 127.0.0.1:8001); gunicorn starts it, starts it again if it stops,
# and stops it with itself. Without it the pages ask gunicorn every 1.5 s instead.
LIVE_BIND = os.environ.get("LIVE_BIND", "").strip()
_live: dict = {}


def _keep_live(log) -> None:  # noqa: ANN001 (gunicorn's logger)
    """Runs the live process, and again (after a second) whenever it stops."""
    import subprocess  # nosec B404: our own module, no shell
    import sys
    import time
    while not _live.get("exiting"):
        process = subprocess.Popen([sys.executable, "-m", "tichu_scorer.live.stream"],  # nosec B603
                                   env=os.environ | {"LIVE_BIND": LIVE_BIND})
        _live["process"] = process
        log.info("Live process on %s (pid %d)", LIVE_BIND, process.pid)
        code = process.wait()
        if not _live.get("exiting"):
            log.warning("Live process stopped (%s); started again", code)
            time.sleep(1)


def when_ready(server):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    if LIVE_BIND:
        import threading
        threading.Thread(target=_keep_live, args=(server.log,), daemon=True).start()


def on_exit(server):  # noqa: ANN001, ANN201, ARG001 (gunicorn's hook signature)
    _live["exiting"] = True
    process = _live.get("process")
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except Exception:  # noqa: BLE001 (it did not stop in time: killed)
            process.kill()


def on_starting(server):  # noqa: ARG001 (gunicorn's hook signature)
    limits_on = os.environ.get("RATELIMIT_ENABLED", "true").lower() != "false"
    if workers > 1 and limits_on and not SHARED_LIMITS:
        server.log.warning("Rate limits are counted per worker (%d workers, no REDIS_URL): "
                           "set REDIS_URL to share them", workers)
