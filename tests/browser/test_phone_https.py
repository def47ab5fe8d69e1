"""The production recipe of docs/DEPLOY.md on loopback: Caddy (its internal CA, `tls
internal`) in front of gunicorn, and a phone's Chromium that trusts that CA. Over HTTPS the
service worker registers, the match page opens without signal, a hand saved without signal
waits in the outbox and is sent exactly once when the signal is back, and every link the
Share page hands out is https (the proxy's X-Forwarded-Proto, PROXY_COUNT=1)."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest

from tests.browser.conftest import ARGS, CHROMIUM, PHONE, shot
from tests.browser.test_phone_offline import controlled_match, enter_first_hand, send_waiting
from tests.conftest import free_port, stop_server
from tests.test_proxy import gunicorn_on_a_new_database

CADDY = shutil.which("caddy")
HOST = "tichu.test"  # mapped to 127.0.0.1 in Chromium: not loopback to the app
CADDYFILE = """{{
	admin off
	skip_install_trust
	auto_https disable_redirects
	http_port {http_port}
	https_port {https_port}
	storage file_system {{
		root {data}
	}}
}}
{host}:{https_port} {{
	bind 127.0.0.1
	tls internal
	reverse_proxy 127.0.0.1:{app_port}
}}
"""

pytestmark = [
    pytest.mark.skipif(CADDY is None, reason="no caddy: apt-get install caddy (.ci/run does)"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: apt-get install "
                       "chromium-headless-shell"),
]


def _element(der: bytes, at: int) -> tuple[int, int]:
    """The DER element at `at`: where its contents begin and where it ends."""
    length, start = der[at + 1], at + 2
    if length & 0x80:
        count = length & 0x7F
        length, start = int.from_bytes(der[start:start + count], "big"), start + count
    return start, start + length


def spki_hash(pem: str) -> str:
    """base64 of the SHA-256 of a certificate's SubjectPublicKeyInfo: what Chromium's
    --ignore-certificate-errors-spki-list names a trusted key by."""
    der = ssl.PEM_cert_to_DER_cert(pem)
    tbs, _ = _element(der, 0)  # Certificate ::= SEQUENCE { tbsCertificate, … }
    at, fields = _element(der, tbs)[0], []
    while len(fields) < 7:  # [0] version, serial, signature, issuer, validity, subject, SPKI
        end = _element(der, at)[1]
        fields.append((at, end))
        at = end
    if der[fields[0][0]] != 0xA0:  # a v1 certificate has no version: SPKI is the sixth
        fields.insert(0, (0, 0))
    spki_start, spki_end = fields[6]
    return base64.b64encode(hashlib.sha256(der[spki_start:spki_end]).digest()).decode()


def wait_for_tls(port: int, caddy: subprocess.Popen[bytes], log: Path) -> None:
    """Until Caddy answers TLS for HOST on `port` (it makes its CA and certificate first)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # nosec: only waiting for the handshake here
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if caddy.poll() is not None:
            raise RuntimeError(f"caddy stopped: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, \
                    context.wrap_socket(raw, server_hostname=HOST):
                return
        except (OSError, ssl.SSLError):
            time.sleep(0.2)
    raise RuntimeError(f"caddy never answered TLS: {log.read_text()[-2000:]}")


@pytest.fixture()
def behind_caddy(tmp_path):
    """gunicorn as `make serve` runs it in production, behind Caddy with `tls internal` on
    loopback ports; yields the base URL and the folder of Caddy's CA (root.crt, the
    certificate a phone installs, and intermediate.crt)."""
    server, app_port = gunicorn_on_a_new_database(
        tmp_path, {"SECRET_KEY": "behind-caddy", "TICHU_ENV": "production",
                   "PROXY_COUNT": "1", "REDIS_URL": "", "PAGE_STORE_URI": "",
                   "RATELIMIT_STORAGE_URI": "memory://"}, threads=4)
    home, https_port = tmp_path / "caddy", free_port()
    home.mkdir()
    config = home / "Caddyfile"
    config.write_text(CADDYFILE.format(http_port=free_port(), https_port=https_port,
                                       data=home / "data", host=HOST, app_port=app_port))
    log = home / "log"
    caddy = None
    try:
        with log.open("wb") as out:
            caddy = subprocess.Popen(
                [CADDY, "run", "--adapter", "caddyfile", "--config", str(config)],
                env=os.environ | {"HOME": str(home), "XDG_DATA_HOME": str(home / "xdg-data"),
                                  "XDG_CONFIG_HOME": str(home / "xdg-config")},
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for_tls(https_port, caddy, log)
        authority = home / "data" / "pki" / "authorities" / "local"
        yield f"https://{HOST}:{https_port}", authority
    finally:
        if caddy is not None:
            os.killpg(caddy.pid, signal.SIGTERM)
            try:
                caddy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(caddy.pid, signal.SIGKILL)
                caddy.wait(timeout=10)
        stop_server(server)


@pytest.fixture()
def trusting_phone(behind_caddy, browser_type):
    """A phone whose Chromium trusts Caddy's internal CA (as a phone does once its root
    certificate is installed) and finds HOST on loopback."""
    base, authority = behind_caddy
    # Chromium matches the keys of the chain the server sent: Caddy sends its certificate
    # and the intermediate, never the root, so the intermediate's key is the one named.
    # Any other certificate error still fails (--ignore-certificate-errors would hide all).
    trusted = spki_hash((authority / "intermediate.crt").read_text())
    browser = browser_type.launch(executable_path=CHROMIUM, args=ARGS + [
        f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
        f"--ignore-certificate-errors-spki-list={trusted}"])
    try:
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.errors = errors
        yield base, page
    finally:
        browser.close()


def handshake(port: int, context: ssl.SSLContext) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, \
            context.wrap_socket(raw, server_hostname=HOST) as tls:
        return tls.version() or ""


def test_caddys_certificate_is_trusted_only_with_its_root_installed(behind_caddy):
    """What docs/DEPLOY.md asks of each phone on a home network: Caddy's certificate for
    the host is signed by its own CA, which no one trusts until root.crt is installed."""
    base, authority = behind_caddy
    port = int(base.rsplit(":", 1)[1])
    with pytest.raises(ssl.SSLCertVerificationError, match="unable to get local issuer"):
        handshake(port, ssl.create_default_context())
    installed = ssl.create_default_context(cafile=str(authority / "root.crt"))
    assert handshake(port, installed).startswith("TLSv1.")


@pytest.mark.core
def test_offline_flow_over_https_behind_caddy(trusting_phone):
    base, page = trusting_phone
    context = page.context
    match_url = controlled_match(page, base)  # waits until the service worker controls it
    assert match_url.startswith(base + "/matches/")
    assert page.evaluate("window.isSecureContext && location.protocol") == "https:"
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == base + "/"
    secure = [c for c in context.cookies(base) if c["name"] == "session"]
    assert secure and secure[0]["secure"], "production's session cookie is Secure"

    page.goto(match_url + "/share")  # links through the proxy: https, its host and port
    link = page.get_attribute("a[data-share-link]", "href")
    assert link is not None and link.startswith(base + "/v/")
    assert page.locator("[data-unreachable]").count() == 0
    shot(page, "https-share")

    context.set_offline(True)
    page.goto(match_url)  # the match page, from the phone without signal
    page.wait_for_selector("text=Add hand 1")
    enter_first_hand(page, match_url)  # saved without signal: it waits in the outbox
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 1
    shot(page, "https-offline-waiting")

    context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden", timeout=15000)
    page.goto(match_url)
    assert page.locator("table.hands tbody tr").count() == 1
    assert [int(t) for t in page.locator("[data-total]").all_text_contents()] == [75, 25]
    page.evaluate("window.tichuOutbox.flush()")  # sending again sends nothing twice
    page.reload()
    assert page.locator("table.hands tbody tr").count() == 1
    assert page.evaluate("window.tichuOutbox.all().then((items) => items.length)") == 0
    faults = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert not faults, faults
