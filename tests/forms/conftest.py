"""The app the tests of `forms` run their forms in."""

from __future__ import annotations

import pytest

from tests.conftest import make_app


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The app as tests/conftest.py's `app` fixture makes it (`make_app`), once for this
    module and without tables: no form asks the database, and an app with a fresh database
    for each test would take most of the file's time (removing this fixture gives every
    test conftest's own)."""
    return make_app(tmp_path_factory.mktemp("forms"))
