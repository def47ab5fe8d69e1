"""Behind PROXY_COUNT proxies the client is the address the last proxy saw; with none
trusted (the default) X-Forwarded-For is ignored, so a forged one buys no new budget.
(Across workers and servers, with Redis: tests/test_servers.py.)"""

from __future__ import annotations

import pytest

from tests.conftest import NAMES, make_app
from tichu_scorer.extensions import db

FORM = {f"seat_{i}": n for i, n in enumerate(NAMES)} | {"target": "1000"}


def creations(app, forwarded_for: str, n: int) -> list[int]:
    client = app.test_client()
    return [client.post("/matches/new", data=FORM, headers={
        "X-Forwarded-For": forwarded_for}).status_code for _ in range(n)]


@pytest.mark.parametrize("proxies", [0, 1])
def test_forwarded_for_counts_only_behind_a_trusted_proxy(tmp_path, proxies):
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, CREATE_RATE_LIMIT="2 per hour",
                   PROXY_COUNT=proxies, RATELIMIT_STORAGE_URI="memory://")
    with app.app_context():
        db.create_all()
    assert creations(app, "203.0.113.7", 3) == [303, 303, 429]
    other = creations(app, "203.0.113.8", 1)
    assert other == ([303] if proxies else [429])
    # a client naming an address before the proxy's own entry gains nothing
    if proxies:
        assert creations(app, "198.51.100.1, 203.0.113.7", 1) == [429]
    with app.app_context():
        db.engine.dispose()
