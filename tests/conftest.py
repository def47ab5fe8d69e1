"""A fresh app and database per test."""

from __future__ import annotations

import re

import pytest

from tichu_scorer import create_app
from tichu_scorer.extensions import db


@pytest.fixture()
def app(tmp_path):
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}"},
                     instance_path=str(tmp_path / "instance"))
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


def match_id(url: str) -> int:
    return int(re.search(r"/matches/(\d+)", url).group(1))
