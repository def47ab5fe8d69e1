"""Every link and QR code the app hands out opens on the other phones: built on PUBLIC_URL
when set, else on the address the request came to; at 127.0.0.1 or localhost the page says
that other phones cannot open it. A bad PUBLIC_URL stops the app at start, saying why; and
`make run` listens on the network and prints the address with its QR code."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import segno

from tests.conftest import NAMES, make_app
from tichu_scorer import create_app, lan
from tichu_scorer.extensions import db
from tichu_scorer.models import Group
from tichu_scorer.views.sharing import qr_svg

ROOT = Path(__file__).resolve().parents[2]
LAN = "http://192.168.1.20:5000"
WARNING = "Other phones cannot open these links and codes."
FORM = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"}


def app_with(tmp_path, **config):
    app = make_app(tmp_path, **config)
    with app.app_context():
        db.create_all()
    return app


def links(page: str) -> list[str]:
    """Every address the page hands out: its share, invite and scorer links, and the join
    page named in its text."""
    found = re.findall(r'<a href="(https?://[^"]+)"', page)
    found += re.findall(r"(?:at|unter) (https?://\S+?/join)\b", page)
    return [link.replace("&amp;", "&") for link in found]


def pages(app, client, base: str | None = None) -> dict[str, str]:
    """The share page's two choices and the table page, as the scorer of a new match sees
    them, every request sent to `base` (a host and port)."""
    at = {"base_url": base} if base else {}
    made = client.post("/matches/new", data=FORM, **at)
    assert made.status_code == 303, made.get_data(as_text=True)
    match = made.headers["Location"]
    with app.app_context():
        table_key = db.session.execute(db.select(Group.key)).scalar_one()
    return {name: client.get(path, **at).get_data(as_text=True) for name, path in (
        ("watch", match + "/share"), ("score", match + "/share?to=score"),
        ("table", f"/tables/{table_key}"))}


def assert_handed_out_on(shown: dict[str, str], base: str) -> None:
    for name, page in shown.items():
        found = links(page)
        assert len(found) == (2 if name != "table" else 3), (name, found)
        assert all(link.startswith(base + "/") for link in found), (name, found)
        for link in found:  # each QR code is the code of its link
            if "/join?code=" in link or "/v/" in link or "key=" in link:
                assert qr_svg(link) in page, (name, link)


def test_public_url_is_every_link_and_qr_code_and_no_warning(tmp_path):
    app = app_with(tmp_path, PUBLIC_URL="https://tichu.example/")
    shown = pages(app, app.test_client())  # opened at localhost: the links still say PUBLIC_URL
    assert_handed_out_on(shown, "https://tichu.example")
    assert not any(WARNING in page or "data-unreachable" in page for page in shown.values())


def test_a_request_to_a_network_address_hands_out_that_address(tmp_path):
    app = app_with(tmp_path)
    shown = pages(app, app.test_client(), LAN)
    assert_handed_out_on(shown, LAN)
    assert not any("data-unreachable" in page for page in shown.values())


@pytest.mark.parametrize("base", ["http://localhost", "http://127.0.0.1:5000",
                                  "http://[::1]:5000"])
def test_at_loopback_without_public_url_the_page_says_other_phones_cannot_open_it(
        tmp_path, base):
    app = app_with(tmp_path)
    shown = pages(app, app.test_client(), base)
    host = base.removeprefix("http://")
    for name, page in shown.items():
        assert page.count("data-unreachable") == 1, name
        assert WARNING in page and f"{host} is this computer itself" in page, name
        assert "PUBLIC_URL" in page and "make run" in page, name


def test_the_warning_is_in_german_for_a_german_phone(tmp_path):
    app = app_with(tmp_path)
    client = app.test_client()
    client.set_cookie("lang", "de")
    page = pages(app, client)["watch"]
    assert "Andere Handys können diese Links und Codes nicht öffnen." in page
    assert WARNING not in page


def test_behind_a_trusted_proxy_links_say_https(tmp_path):
    """Caddy (deploy/Caddyfile) passes the phone's Host and says X-Forwarded-Proto: https;
    with PROXY_COUNT=1 the links are https, without it the header is not believed."""
    for proxies, scheme in ((1, "https"), (0, "http")):
        app = app_with(tmp_path / str(proxies), PROXY_COUNT=proxies)
        client = app.test_client()
        client.environ_base["HTTP_X_FORWARDED_PROTO"] = "https"
        client.environ_base["HTTP_X_FORWARDED_FOR"] = "192.168.1.30"
        assert_handed_out_on(pages(app, client, "http://tichu.example"), f"{scheme}://tichu.example")


BAD = ["tichu.example", "ftp://tichu.example", "https://", "https://tichu.example/tichu",
       "https://tichu.example/?a=1", "https://tichu.example#top", "https://me:pw@tichu.example",
       "https://tichu.example:99999", "https://tichu.example:0", "https://tichu example",
       "http://127.0.0.1:5000", "https://localhost", "http://[::1]:5000", "http://0.0.0.0:5000"]


@pytest.mark.parametrize("value", BAD)
def test_a_bad_public_url_is_refused_at_start_saying_why(tmp_path, value):
    with pytest.raises(RuntimeError, match=r"Refusing to start: PUBLIC_URL .*"
                       r"(http:// or https://|names this computer itself)") as refused:
        make_app(tmp_path, PUBLIC_URL=value)
    assert "https://tichu.example or http://192.168.1.20:5000" in str(refused.value)


def test_public_url_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", " HTTPS://Tichu.Example:8443/ ")
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"},
                     instance_path=str(tmp_path))
    assert app.config["PUBLIC_URL"] == "https://tichu.example:8443"
    monkeypatch.setenv("PUBLIC_URL", "tichu.example")
    with pytest.raises(RuntimeError, match="PUBLIC_URL must be"):
        create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"},
                   instance_path=str(tmp_path))


def banner(host: str, public_url: str = "", addresses=("192.168.1.20", "10.0.0.5")) -> str:
    out = io.StringIO()
    lan.banner(host, 5000, public_url, list(addresses), out)
    return out.getvalue()


def terminal_qr(text: str) -> str:
    code = io.StringIO()
    segno.make(text, error="m").terminal(out=code, compact=True)
    return code.getvalue()


def test_make_run_prints_the_address_for_the_other_phones_and_its_qr_code():
    shown = banner("0.0.0.0")
    assert "    http://192.168.1.20:5000\n    http://10.0.0.5:5000\n" in shown
    assert terminal_qr("http://192.168.1.20:5000") in shown
    assert "make run HOST=127.0.0.1" in shown and "docs/DEPLOY.md" in shown
    shown = banner("0.0.0.0", public_url="https://tichu.example")
    assert "    https://tichu.example\n" in shown and "192.168" not in shown
    assert terminal_qr("https://tichu.example") in shown and "docs/DEPLOY.md" not in shown
    shown = banner("127.0.0.1")
    assert "for this computer only: other phones cannot open it" in shown
    assert "\u2588" not in shown  # no QR code of an address no phone can open
    assert "has no network address" in banner("0.0.0.0", addresses=())
    assert "    http://192.168.1.7:5000\n" in banner("192.168.1.7")


def test_the_addresses_found_are_usable_by_other_devices():
    import ipaddress
    for address in lan.lan_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not (ip.is_loopback or ip.is_link_local), address


def test_make_run_listens_on_the_network_unless_told_and_stops_on_a_bad_public_url():
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert "--host 0.0.0.0" in dry and "tichu_scorer.lan 0.0.0.0 5000" in dry
    dry = subprocess.run(["make", "-n", "run", "HOST=127.0.0.1"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "--host 127.0.0.1" in dry
    env = os.environ | {"PUBLIC_URL": "tichu.example"}
    refused = subprocess.run([sys.executable, "-m", "tichu_scorer.lan", "0.0.0.0", "5000"],
                             cwd=ROOT, env=env, capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("Tichu Scorer cannot start: PUBLIC_URL must be")


def test_the_banner_command_refuses_a_bad_public_url_and_shows_a_good_one(monkeypatch, capsys):
    """`lan.main`, what `make run` runs first, in this process (the command itself above)."""
    monkeypatch.setenv("PUBLIC_URL", "tichu.example")
    assert lan.main(["0.0.0.0", "5000"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("Tichu Scorer cannot start: PUBLIC_URL must be")
    monkeypatch.setenv("PUBLIC_URL", "https://tichu.example")
    assert lan.main(["0.0.0.0", "5000"]) == 0
    out, err = capsys.readouterr()
    assert "https://tichu.example" in out and err == ""
