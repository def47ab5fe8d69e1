"""The Alembic migrations build the schema the models describe (the run command applies them)."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from tests.conftest import make_app
from tichu_scorer.extensions import db


def test_upgrade_builds_the_models_schema(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        upgrade()
        tables = set(inspect(db.engine).get_table_names())
        assert {"player", "match", "match_seat", "hand", "alembic_version"} <= tables
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        assert diff == [], f"models changed without a migration: {diff}"
        if db.engine.dialect.name != "sqlite":
            return
        # SQLite pragmas: foreign keys on, WAL journal
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_upgrading_an_existing_history_keeps_it_in_one_table(tmp_path):
    """A database from before tables: its matches move into one table, its players with
    them, every match gets a key, and the app serves them."""
    from datetime import datetime

    from sqlalchemy import text

    def day(n):
        return datetime(2026, 1, n)

    app = make_app(tmp_path, SINGLE_TABLE=True)
    with app.app_context():
        upgrade(revision="2a3d59e77db5")
        with db.engine.begin() as conn:
            for pid, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee"), (5, "Lonely")):
                conn.execute(text("INSERT INTO player (id, name, name_key, created_at) "
                                  "VALUES (:i, :n, :k, :t)"),
                             {"i": pid, "n": name, "k": name.lower(), "t": day(1)})
            for mid in (1, 2):
                conn.execute(text(
                    "INSERT INTO match (id, variant, target, started_at, totals, hand_count, "
                    "code, scorer_key, revision) VALUES (:i, 'nanking', 1000, :t, '[0, 0]', 0, "
                    ":c, :k, 0)"), {"i": mid, "c": f"CODE{mid}", "k": f"K{mid}", "t": day(mid)})
                for seat in range(4):
                    conn.execute(text("INSERT INTO match_seat (match_id, seat, team, player_id) "
                                      "VALUES (:m, :s, :t, :p)"),
                                 {"m": mid, "s": seat, "t": seat % 2, "p": seat + 1})
                conn.execute(text(
                    "INSERT INTO hand (match_id, number, version, out_order, calls, "
                    "card_points_entered, card_points, team_scores, sweep, created_at) VALUES "
                    "(:m, 1, 1, '[0, 1, 2, 3]', '{}', '[60, null]', '[60, 40]', '[60, 40]', "
                    "false, :t)"), {"m": mid, "t": day(mid)})
        upgrade()
        with db.engine.connect() as conn:
            groups = conn.execute(text("SELECT id FROM tichu_group")).scalars().all()
            keys = conn.execute(text("SELECT key, group_id FROM match")).all()
            players = conn.execute(text("SELECT name, group_id FROM player")).all()
            hands = conn.execute(text("SELECT match_id, team_scores FROM hand")).all()
    assert len(groups) == 1
    assert all(len(k) == 16 and g == groups[0] for k, g in keys)
    assert sorted(p.name for p in players) == ["Ann", "Bob", "Cy", "Dee"]  # never seated: gone
    assert all(p.group_id == groups[0] for p in players)
    assert sorted(h.match_id for h in hands) == [1, 2]  # rebuilding `match` deleted no hand
    page = app.test_client().get(f"/matches/{keys[0][0]}").get_data(as_text=True)
    assert "Ann" in page and "Dee" in page
    with app.app_context():  # the statistics were counted from the hands (no stats kept)
        with db.engine.connect() as conn:
            rows = conn.execute(text("SELECT match_id, side, who, matches, hands, points "
                                     "FROM match_tally ORDER BY match_id, side, who")).all()
            sums = conn.execute(text("SELECT who, matches, hands, points FROM table_tally "
                                     "WHERE side = 0 ORDER BY who")).all()
    assert [(r.match_id, r.side, r.who) for r in rows[:6]] == [
        (1, 0, "Ann"), (1, 0, "Bob"), (1, 0, "Cy"), (1, 0, "Dee"),
        (1, 1, '["Ann","Cy"]'), (1, 1, '["Bob","Dee"]')]
    assert [tuple(s) for s in sums] == [("Ann", 2, 2, 120), ("Bob", 2, 2, 80),
                                        ("Cy", 2, 2, 120), ("Dee", 2, 2, 80)]
    stats = app.test_client().get("/stats").get_data(as_text=True)
    assert "Ann" in stats and "Bob" in stats


def test_a_match_from_before_score_codes_gets_one(tmp_path):
    """A match stored before score codes held a random key no phone can type: the migration
    gives it a score code, which its share page shows and which opens it; a match with a
    code keeps its own."""
    import secrets

    from sqlalchemy import text

    from tests.conftest import new_match
    from tichu_scorer.tables import codes

    app = make_app(tmp_path)  # two matches made by the app, then the schema taken back to
    client = app.test_client()  # before score codes, one match holding such an old key
    with app.app_context():
        upgrade()
    old_url, kept_url = new_match(client), new_match(client)
    old = secrets.token_urlsafe(16)  # what a match stored before score codes holds
    with app.app_context():
        downgrade(revision="e5b1d7a3c920")
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE match SET scorer_key = :k WHERE key = :m"),
                         {"k": old, "m": old_url.rsplit("/", 1)[1]})
            kept = conn.execute(text("SELECT scorer_key FROM match WHERE key = :m"),
                                {"m": kept_url.rsplit("/", 1)[1]}).scalar_one()
        upgrade()
        with db.engine.connect() as conn:
            keys = dict(conn.execute(text("SELECT key, scorer_key FROM match")).all())
    code = keys[old_url.rsplit("/", 1)[1]]
    assert codes.is_code(code, codes.SCORE_LENGTH) and code != old
    assert keys[kept_url.rsplit("/", 1)[1]] == kept
    assert code in client.get(old_url + "/share?to=score").get_data(as_text=True)
    r = app.test_client().get("/join", query_string={"code": code})
    assert r.status_code == 303 and r.headers["Location"] == old_url


def test_upgrading_reads_the_statistics_kept_on_each_match(tmp_path):
    """A match whose statistics were kept on its row (`match.stats`, before the rows per
    match) has them moved into its rows as kept, and into its table's sums; the column
    goes. (The numbers here are not a recount of any hand: they can only come from it.)"""
    import json

    from sqlalchemy import text

    app = make_app(tmp_path)
    kept = {"variant": "nanking",
            "players": [[n, [1, 1, 7, 310, 2, 1, 1, 1, 0, 0]] for n in ("Ann", "Cy")]
            + [[n, [1, 0, 7, -10, 0, 0, 0, 0, 1, 0]] for n in ("Bob", "Dee")],
            "pairs": [[["Ann", "Cy"], [1, 1, 7, 310, 3, 1, 1, 1, 0, 0]],
                      [["Bob", "Dee"], [1, 0, 7, -10, 0, 0, 0, 0, 1, 0]]]}
    with app.app_context():
        upgrade(revision="e5b1d7a3c920")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO tichu_group (id, key, name, invite_code, scorer_key, "
                              "generation, created_at) VALUES (1, 'K', 'T', 'INV', 'SK', 1, "
                              "'2026-01-01')"))
            for mid in (1, 2):
                conn.execute(text(
                    "INSERT INTO match (id, key, group_id, variant, target, started_at, totals, "
                    "hand_count, code, scorer_key, revision, stats) VALUES (:i, :k, 1, "
                    "'nanking', 1000, '2026-01-01', '[0, 0]', 7, :c, :s, 0, :st)"),
                    {"i": mid, "k": f"KEY{mid}", "c": f"CODE{mid}", "s": f"S{mid}",
                     "st": json.dumps(kept)})
        upgrade()
        with db.engine.connect() as conn:
            rows = conn.execute(text("SELECT count(*) FROM match_tally")).scalar()
            sums = dict(conn.execute(text("SELECT who, points FROM table_tally")).all())
            columns = [c["name"] for c in inspect(conn).get_columns("match")]
    assert rows == 12
    assert sums == {"Ann": 620, "Cy": 620, "Bob": -20, "Dee": -20,
                    '["Ann","Cy"]': 620, '["Bob","Dee"]': -20}
    assert "stats" not in columns


def test_upgrading_recounts_the_hands_won_of_an_existing_history(tmp_path):
    """The statistics' rows of a history from before `hands_won` (every variant, deleted
    hands, a tie, a renamed player) are recounted from the hands' kept scores: each match's
    rows and each table's sums equal what the app counts now."""
    from sqlalchemy import text

    from tests.matches.conftest import add, new_match
    from tests.views.test_transfer import synthetic_history
    from tichu_scorer.models import Group, Match, Player
    from tichu_scorer.players import identity
    from tichu_scorer.scoring.stats import COUNTS
    from tichu_scorer.statistics import counting
    from tichu_scorer.transfer import json_import

    def stored(conn):
        rows = {(m, side, who): won for m, side, who, won in conn.execute(text(
            "SELECT match_id, side, who, hands_won FROM match_tally"))}
        sums = {(g, v, side, who): won for g, v, side, who, won in conn.execute(text(
            "SELECT group_id, variant, side, who, hands_won FROM table_tally"))}
        return rows, sums

    app = make_app(tmp_path)
    with app.app_context():
        upgrade()
    with app.test_request_context():
        group = db.session.get(Group, new_match().group_id)
        json_import.import_json(synthetic_history(matches=15, hands=12), group)
        tie = add(new_match(table="U").key, {"out_order": [0, 2]},
                  {"out_order": [1, 0], "card_points": [50, None]})  # 50 : 50, nobody
        ann = db.session.execute(db.select(Player).filter_by(
            group_id=tie.group_id, name="Ann")).scalar_one()
        identity.rename(db.session.get(Group, tie.group_id), ann, "Anne")
        db.session.commit()
        expected = {}
        for match in db.session.execute(db.select(Match)).scalars():
            for (side, who), c in counting.rows(counting.counted(match)).items():
                expected[match.id, side, who] = c[COUNTS.index("hands_won")]
        with db.engine.connect() as conn:
            before = stored(conn)
    assert before[0] == expected and sum(expected.values()) > 100
    assert expected[tie.id, 0, "Anne"] == 1 and expected[tie.id, 0, "Bob"] == 0
    with app.app_context():
        downgrade(revision="7c1e5a9d2f40")
        upgrade()
        with db.engine.connect() as conn:
            after = stored(conn)
    assert after == before  # every match's rows, every table's sums
