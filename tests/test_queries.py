"""The match page costs the same number of queries with 500 hands as with 10."""

from sqlalchemy import event

from tests.conftest import hand_form, match_key, new_match
from tichu_scorer.extensions import db
from tichu_scorer.matches import hand_entry, writes


def add_hands(app, url, count):
    with app.app_context():
        for number in range(1, count + 1):  # level teams: the match never ends
            match = writes.lock_match(match_key(url))
            hand, problems, _shown = hand_entry.add_hand(match, {"out_order": [1, 2],
                                                      "card_points": [50, None]}, number)
            assert hand is not None, problems


def queries_for(app, client, path):
    statements = []
    with app.app_context():
        def count(conn, cursor, statement, *args):
            statements.append(statement)
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            assert client.get(path).status_code == 200
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    return statements


def test_query_count_does_not_grow_with_hands(app, client):
    small, large = new_match(client), new_match(client, ["E", "F", "G", "H"])
    add_hands(app, small, 10)
    add_hands(app, large, 500)
    for page in ("", "/hands/new"):
        few = queries_for(app, client, small + page)
        many = queries_for(app, client, large + page)
        # (one of them the hand in play's events with its number: RULES.md §11)
        assert len(many) == len(few) <= 7, many


def test_history_query_count_is_constant(app, client):
    for i in range(3):
        new_match(client, [f"A{i}", f"B{i}", f"C{i}", f"D{i}"])
    few = len(queries_for(app, client, "/"))
    for i in range(3, 30):
        new_match(client, [f"A{i}", f"B{i}", f"C{i}", f"D{i}"])
    # (one of them the version live.js polls for: the checksum of the tables' matches)
    assert len(queries_for(app, client, "/")) == few <= 5


def transactions_for(app, client, method, path, **kwargs):
    """For each statement a request runs: whether it ran inside a transaction."""
    seen = []
    with app.app_context():
        def note(conn, cursor, statement, *args):
            raw = conn.connection.dbapi_connection
            if conn.dialect.name == "postgresql":
                seen.append(not raw.autocommit)
            else:  # SQLite: SQLAlchemy begins its transactions itself (BEGIN [IMMEDIATE])
                seen.append(raw.in_transaction or statement.startswith("BEGIN"))
        event.listen(db.engine, "before_cursor_execute", note)
        try:
            response = client.open(path, method=method, **kwargs)
        finally:
            event.remove(db.engine, "before_cursor_execute", note)
    return response, seen


def test_the_match_page_reads_without_a_transaction_on_postgresql_only(app, client):
    """`writes.reading`: on PostgreSQL the match page's statements run outside a
    transaction (no BEGIN and ROLLBACK round trips); a save, after it, still writes in one
    transaction; SQLite keeps its read transaction."""
    url = new_match(client)
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
    add_hands(app, url, 2)
    for _ in range(2):  # built, then kept
        response, page = transactions_for(app, client, "GET", url)
        assert response.status_code == 200 and page
        assert page == [not postgres] * len(page)
    response, save = transactions_for(app, client, "POST", url + "/hands/new",
                                      data=hand_form(out=(1, 2), a=50) | {"number": "3"})
    assert response.status_code == 303
    assert len(save) >= 3 and all(save)  # PostgreSQL: lock, seats, the writes at once
