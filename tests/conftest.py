"""A fresh app and database per test: SQLite in a temporary folder, or the PostgreSQL
database named by TEST_DATABASE_URL (emptied before each test)."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import settings

from tichu_scorer import create_app
from tichu_scorer.config import database_url
from tichu_scorer.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()

# CI replays the same generated cases on every run, so a landing never hinges on luck;
# local runs explore new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def database_uri(tmp_path) -> str:
    if TEST_DATABASE_URL:
        os.environ["DATABASE_URL"] = TEST_DATABASE_URL
        return database_url(str(tmp_path))
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


def empty_database(app) -> None:
    """PostgreSQL: drop every table (migrations included) so each test starts clean."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        return
    with app.app_context(), db.engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")


def make_app(tmp_path, **config):
    settings = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                "RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_uri(tmp_path)}
    app = create_app(settings | config, instance_path=str(tmp_path / "instance"))
    empty_database(app)
    return app


@pytest.fixture()
def app(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture()
def client(app):
    return app.test_client()


NAMES = ["Ann", "Bob", "Cy", "Dee"]


def new_match(client, names=NAMES, target="1000", custom=""):
    """Start a match through the form; returns its page URL."""
    data = {f"seat_{i}": n for i, n in enumerate(names)}
    data |= {"target": target, "custom_target": custom}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def hand_form(out=(), calls=None, a=None, b=None, wish=None):
    """Form data for the hand page."""
    data = {f"place_{i + 1}": str(s) for i, s in enumerate(out)}
    for seat, call in (calls or {}).items():
        data[f"call_{seat}"] = call
    if a is not None:
        data["card_a"] = str(a)
    if b is not None:
        data["card_b"] = str(b)
    if wish is not None:
        data["wish_offender"] = str(wish)
    return data


def post_hand(client, url, data, **kwargs):
    """Post a new hand as a phone that just opened the form: it carries the number of the
    next hand (unless `data` names one)."""
    if isinstance(data, dict) and "number" not in data:
        state = client.get(url + "/revision")
        if state.status_code == 200:
            data = data | {"number": str(state.get_json()["hands"] + 1)}
    return client.post(url + "/hands/new", data=data, **kwargs)


def match_key(url: str) -> str:
    return re.search(r"/matches/([A-Za-z0-9_-]+)", url).group(1)


def match_id(url: str) -> int:
    """The database id of the match at `url` (inside an app context)."""
    from tichu_scorer.models import Match
    return db.session.execute(db.select(Match.id).filter_by(key=match_key(url))).scalar_one()
