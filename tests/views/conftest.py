"""Fixtures of the live pages' tests (test_live.py, test_stream.py) and of the match page's
(test_match_page_kept.py, test_repeat_views.py)."""

import pytest

from tests.conftest import BufferedClient, match_id, new_match
from tichu_scorer import create_app
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


@pytest.fixture()
def other_server(app, tmp_path):
    """A second app process on the same database, as another gunicorn worker or server:
    it keeps its own bodies, and shares only the database and the secret key."""
    keys = ("TESTING", "WTF_CSRF_ENABLED", "SECRET_KEY", "RATELIMIT_ENABLED",
            "SQLALCHEMY_DATABASE_URI")
    other = create_app({k: app.config[k] for k in keys}, instance_path=str(tmp_path / "other"))
    other.test_client_class = BufferedClient
    yield other
    with other.app_context():
        db.engine.dispose()
