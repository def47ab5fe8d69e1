"""Security: headers, cookies, the production key, size limits, rate limits, bandit."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import NAMES, make_app, new_match, post_hand
from tichu_scorer import create_app
from tichu_scorer.config import DEV_SECRET_KEY
from tichu_scorer.extensions import db

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", ["/", "/matches/new", "/referee", "/rules", "/healthz",
                                  "/nope"])
def test_security_headers(client, path):
    r = client.get(path)
    policy = dict(d.strip().split(" ", 1) for d in r.headers["Content-Security-Policy"].split(";"))
    # script, style and connect sources fall back to default-src when not named
    for kind in ("script-src", "style-src", "connect-src"):
        assert policy.get(kind, policy["default-src"]) == "'self'"
    assert "unsafe" not in r.headers["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'" and policy["form-action"] == "'self'"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"


def test_the_static_svg_icon_opened_as_a_document_may_load_and_run_nothing(client):
    r = client.get("/static/icons/icon.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.headers["Content-Security-Policy"] == "default-src 'none'"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert b"<script" not in r.get_data() and b"href" not in r.get_data()


def test_no_inline_script_in_any_template():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\son[a-z]+=", text), path  # no inline event handlers


def test_production_refuses_the_development_key(tmp_path, monkeypatch):
    monkeypatch.setenv("TICHU_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", DEV_SECRET_KEY)
    with pytest.raises(RuntimeError, match="development secret key"):
        create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))


def test_production_cookies_are_secure(tmp_path, monkeypatch):
    monkeypatch.setenv("TICHU_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "a-real-secret-from-the-environment")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite3'}"},
                     instance_path=str(tmp_path))
    with app.app_context():
        db.create_all()
    r = app.test_client().get("/matches/new", base_url="https://tichu.example")
    cookie = r.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_secret_key_created_once_in_instance(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))
    second = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] != DEV_SECRET_KEY
    assert len(first.config["SECRET_KEY"]) >= 32
    assert oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"


def test_oversized_bodies_are_refused(client):
    r = client.post("/api/v1/score", data=b"[" * 70_000, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]
    url = new_match(client)
    r = post_hand(client, url, {"card_a": "5" * 70_000})
    assert r.status_code == 413


@pytest.mark.parametrize("body", [{"out_order": list(range(5000))},
                                  {"out_order": [0], "calls": {str(i): "tichu"
                                                               for i in range(2000)}}])
def test_long_lists_are_refused_quickly(client, body):
    r = client.post("/api/v1/score", json=body)
    assert r.status_code == 422


def test_writes_are_rate_limited(tmp_path):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, WRITE_RATE_LIMIT="3 per minute")
    with app.app_context():
        db.create_all()
    client = app.test_client()
    data = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"}
    answers = [client.post("/matches/new", data=data) for _ in range(4)]
    assert [r.status_code for r in answers] == [303, 303, 303, 429]
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 60
    assert "X-RateLimit-Remaining" not in answers[0].headers  # no look-up per write
    assert client.get("/").status_code == 200  # reads are never limited
    assert client.post("/api/v1/score", json={"out_order": [0, 2]}).status_code == 200


def test_health(tmp_path):
    # The shape of a healthy answer. Its bounds are test_health.py's, each with the state it
    # reports: here a loaded machine (load 15, coverage on) once took 5 s for the first
    # connection of a fresh app to PostgreSQL, past the 750 ms answer bound, and the check
    # rightly said "unreachable".
    app = make_app(tmp_path, tables=True, HEALTH_ANSWER_MS=30_000, HEALTH_TIMEOUT_MS=30_000)
    r = app.test_client().get("/healthz")
    assert r.status_code == 200 and r.get_json() == {"status": "ok", "database": "ok"}


def test_health_reports_a_dead_database(tmp_path):
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI="sqlite:////nonexistent/dir/x.sqlite3")
    r = app.test_client().get("/healthz")
    assert r.status_code == 503 and r.get_json()["database"] == "unreachable"


@pytest.mark.one_database  # a check of the source: the PostgreSQL run leaves it out
def test_bandit_finds_nothing():
    pytest.importorskip("bandit", reason="bandit is installed by the test extras")
    result = subprocess.run([sys.executable, "-m", "bandit", "-q", "-r", "tichu_scorer",
                             "wsgi.py", "-c", "pyproject.toml"], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
