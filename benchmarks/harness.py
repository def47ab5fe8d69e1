"""Start the app under gunicorn on loopback and talk to it like a phone would (a session
cookie, a CSRF token from the form). Used by the load script and the durability test."""

from __future__ import annotations

import http.client
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKEN = re.compile(rb'name="csrf_token" type="hidden" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(env: dict[str, str], port: int, workers: int = 3,
                   threads: int = 8, log: Path | None = None,
                   root: Path = ROOT, app: str = "wsgi:app") -> subprocess.Popen[bytes]:
    """gunicorn with the project's config on 127.0.0.1:port; waits (up to 60 s) until /healthz
    answers. Its error log goes to `log` when given, its access log to env's ACCESS_LOG (by
    default nowhere). `root`: the checkout it runs (another commit's, to compare); `app`:
    the WSGI app it serves (another one on the same settings, to compare)."""
    full = os.environ | {"ACCESS_LOG": "/dev/null"} | env | {
        "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers), "THREADS": str(threads)}
    errors = log.open("ab") if log else None
    try:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                                 app], cwd=root, env=full, stdout=subprocess.DEVNULL,
                                stderr=errors or subprocess.DEVNULL, start_new_session=True)
    finally:
        if errors is not None:
            errors.close()  # gunicorn has its own copy of the file
    deadline = time.monotonic() + 60  # a loaded machine boots workers slowly
    while time.monotonic() < deadline:
        probe = Session(f"http://127.0.0.1:{port}")
        try:
            status, _ = probe.get("/healthz")
            if status == 200:
                return proc
        except OSError:
            pass
        finally:
            probe.close()
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited while starting")
        time.sleep(0.1)
    kill(proc)
    raise RuntimeError("gunicorn did not start within 30 s")


def kill(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """Kill gunicorn's whole process group (master and workers) at once."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


IDLE_REUSE = 3.0  # seconds a kept connection is reused for a write (gunicorn keeps it 5)


class Session:
    """One client: a kept-alive connection and the session cookie."""

    def __init__(self, base: str, timeout: float = 10) -> None:
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 80
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.cookie: str | None = None
        self.headers: dict[str, str] = {}  # sent with every request (X-Forwarded-For, …)
        self.used = 0.0  # when the kept connection last answered (time.monotonic)

    def request(self, method: str, path: str, body: bytes | None = None,
                content_type: str | None = None) -> tuple[int, bytes, dict[str, str]]:
        headers = {"Connection": "keep-alive"} | self.headers
        if self.cookie:
            headers["Cookie"] = self.cookie
        if content_type:
            headers["Content-Type"] = content_type
        # A kept-alive connection the server closed meanwhile (gunicorn's `keepalive`, 5 s,
        # passes while a loaded machine works elsewhere) fails before any answer: a GET, which
        # changes nothing, is sent once more on a new connection, as HTTP clients do.
        # Any other request is never sent twice: it goes on a new connection when the kept
        # one may be closed by the server as it is sent (idle for most of gunicorn's 5 s) or
        # was closed already (readable while idle: its end), as HTTP clients check.
        if method != "GET" and self.conn is not None and (
                time.monotonic() - self.used > IDLE_REUSE or self._dropped()):
            self.close()
        for fresh in (self.conn is None or method != "GET", True):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port,
                                                       timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if fresh:
                    raise
            except (OSError, http.client.HTTPException):
                self.close()
                raise
        self.used = time.monotonic()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, {k.lower(): v for k, v in response.getheaders()}

    def _dropped(self) -> bool:
        sock = self.conn.sock if self.conn is not None else None
        return sock is None or bool(select.select([sock], [], [], 0)[0])

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def get(self, path: str) -> tuple[int, bytes]:
        status, data, _ = self.request("GET", path)
        return status, data

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
        body = urllib.parse.urlencode(fields).encode()
        status, data, _ = self.request("POST", path, body,
                                       "application/x-www-form-urlencoded")
        return status, data

    def post_json(self, path: str, payload: bytes) -> tuple[int, bytes]:
        status, data, _ = self.request("POST", path, payload, "application/json")
        return status, data

    def import_file(self, token: str, blob: bytes) -> tuple[int, bytes, dict[str, str]]:
        """POST /import as the history page's form sends it: the CSRF token and `blob` as
        the JSON file."""
        boundary = "tichu-import-boundary"
        head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n"
                f"\r\n{token}\r\n--{boundary}\r\nContent-Disposition: form-data; "
                f"name=\"file\"; filename=\"h.json\"\r\nContent-Type: application/json"
                f"\r\n\r\n").encode()
        return self.request("POST", "/import", head + blob + f"\r\n--{boundary}--\r\n".encode(),
                            f"multipart/form-data; boundary={boundary}")

    def token(self, path: str) -> str:
        """The CSRF token of the form at `path` (fetching it sets the session cookie)."""
        status, data = self.get(path)
        found = TOKEN.search(data)
        if status != 200 or not found:
            raise RuntimeError(f"no form at {path} ({status})")
        return found.group(1).decode()

    def new_match(self, names: list[str], target: int = 1000) -> str:
        """Start a four-player match through the form; returns its path."""
        token = self.token("/matches/new")
        fields = {f"seat_{i}": n for i, n in enumerate(names)}
        fields |= {"csrf_token": token, "variant": "nanking", "target": "custom",
                   "custom_target": str(target)}
        body = urllib.parse.urlencode(fields).encode()
        status, _, headers = self.request("POST", "/matches/new", body,
                                          "application/x-www-form-urlencoded")
        if status != 303:
            raise RuntimeError(f"could not start a match ({status})")
        return urllib.parse.urlsplit(headers["location"]).path


def controlled(page) -> None:
    """Wait until the service worker controls a Playwright page (polled from outside the
    page: a predicate evaluated inside it would be refused by the page's CSP). A page that
    loaded while the worker was installing is taken over when it activates
    (`clients.claim()`); on a busy machine Chromium now and then leaves such a page to the
    next load, as a player's next page would be: after 10 s the page is loaded again, once."""
    for attempt in range(2):
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        for _ in range(100):
            if page.evaluate("navigator.serviceWorker.controller !== null"):
                return
            page.wait_for_timeout(100)
        if attempt == 0:
            page.reload()
    raise RuntimeError("the service worker never took control")
