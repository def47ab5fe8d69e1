"""Fixtures of the live pages' tests (test_live.py, test_stream.py)."""

import pytest

from tests.conftest import match_id, new_match
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


@pytest.fixture()
def two_phones(app, client):
    """A match scored from `client`, and a second phone that joined its table as a scorer."""
    url = new_match(client)
    with app.app_context():
        key = db.session.get(Match, match_id(url)).group.scorer_key
    other = app.test_client()
    assert other.get(f"/join?key={key}").status_code == 303
    return url, other
