"""Schemathesis fuzzes every endpoint of docs/openapi.json against the app (its examples,
boundary cases and random requests, valid and invalid): no answer is a server error, every
answer is one the document describes (status, headers, body), a request the document rules
out is refused with a 4xx, and a method it does not list is a 405 naming the allowed ones.
Locally a run explores new cases; CI derandomizes (tests/conftest.py), but the cases drawn
for an operation still depend on which of these tests ran before it in the same process
(Schemathesis keeps its strategies per process): alone, `POST /api/v1/follow/check` drew an
event a 200 wrongly took that CI's workers had not drawn (docs/TESTING.md, flakes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from tests.conftest import CI

SPEC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
# A request the document allows may still be refused for its meaning (card points that do
# not add up, a play not in the hand): docs/API.md's 400 and 422, not a failure.
# a request refused as too large (413, before its body is read) is refused too
# The players of a table (/api/v1/tables/...) answer a valid request for a table the fuzzer
# cannot know with a 404 (or 401/403 for the code it sends, 409 for the table as it stands).
CONFIG = SchemathesisConfig.from_dict({"checks": {
    "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "401", "403", "404",
                                                       "409", "422", "429", "503"]},
    "negative_data_rejection": {"expected-statuses": [
        "400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429",
        "5xx"]}}})
SCHEMA = schemathesis.openapi.from_path(SPEC, config=CONFIG)
# The APIs that keep nothing (docs/API.md): no request of theirs runs a statement
# (tests/views/test_fuzz.py checks each on both databases), so their fuzzing cannot depend
# on the database and runs against SQLite only; the players of a table run on both.
STATELESS = ("/api/v1/score", "/api/v1/referee/check", "/api/v1/follow/check",
             "/api/v1/tournaments/draw", "/api/v1/openapi.json")
ONLY_STATELESS = "^(" + "|".join(map(re.escape, STATELESS)) + ")$"
FUZZ = settings(max_examples=200 if CI else 100, deadline=None, derandomize=CI,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


def _call(app, case) -> None:
    # uncompressed: the test transport hands the checks the body as sent (the document is
    # large enough to be compressed)
    case.call_and_validate(app=app, headers={"Accept-Encoding": "identity"})


@pytest.mark.one_database
@pytest.mark.no_cover  # not traced: docs/TESTING.md, "What CI runs"
@SCHEMA.include(path_regex=ONLY_STATELESS).parametrize()
@FUZZ
def test_every_answer_of_the_apis_that_keep_nothing_is_as_specified(app, case):
    _call(app, case)


@pytest.mark.no_cover
@SCHEMA.exclude(path_regex=ONLY_STATELESS).parametrize()
@FUZZ
def test_every_answer_is_as_specified(app, case):
    _call(app, case)
