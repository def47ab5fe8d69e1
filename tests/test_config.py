"""The settings read from the environment (tichu_scorer/config.py) that the tests' own apps
do not pass through: the database's address as a host gives it, and where match pages are
shared."""

from __future__ import annotations

import pytest

from tichu_scorer.config import database_url, page_store


@pytest.mark.parametrize("given, used", [
    ("postgres://u:p@db:5432/tichu", "postgresql+psycopg://u:p@db:5432/tichu"),
    ("postgresql://u@127.0.0.1/tichu", "postgresql+psycopg://u@127.0.0.1/tichu"),
    ("postgresql+psycopg://u@db/tichu", "postgresql+psycopg://u@db/tichu"),
    ("sqlite:////srv/tichu.sqlite3", "sqlite:////srv/tichu.sqlite3"),
])
def test_a_database_url_as_hosts_write_it_is_run_through_psycopg_3(monkeypatch, given, used):
    monkeypatch.setenv("DATABASE_URL", f"  {given} ")
    assert database_url("/nowhere") == used


def test_without_a_database_url_the_instance_folder_holds_sqlite(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url(str(tmp_path)) == f"sqlite:///{tmp_path / 'tichu.sqlite3'}"


def test_match_pages_are_shared_where_told_else_in_redis_else_nowhere(monkeypatch):
    monkeypatch.delenv("PAGE_STORE_URI", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert page_store() == ""
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert page_store() == "redis://127.0.0.1:6379/0"
    monkeypatch.setenv("PAGE_STORE_URI", " ")  # set but empty: none, Redis or not
    assert page_store() == ""
