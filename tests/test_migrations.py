"""The Alembic migrations build the schema the models describe (the run command applies them)."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
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
