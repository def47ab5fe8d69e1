"""`views.jsonbody`, called directly in a request context: every JSON the app reads (the
API's bodies, the preview's, an import) is refused when it is no JSON object, not UTF-8,
nested more than MAX_DEPTH, holds NaN, a NUL character or (an import) a number beyond
MAX_NUMBER; the refusal names the part to blame without quoting a long input back. No HTTP:
that a refusal is a 400 naming the field is tests/views/test_bad_input.py's and
test_input_edges.py's, once per way in."""

from __future__ import annotations

import functools
import json

import pytest

from tests.conftest import make_app
from tests.views.test_bad_input import HUGE, export, nested
from tichu_scorer.views import jsonbody
from tichu_scorer.views.jsonbody import MAX_DEPTH, BadRequest

pytestmark = pytest.mark.one_database  # no database is asked

DEEP = f"The JSON is nested more than {MAX_DEPTH} levels deep."
NOT_JSON = "The body is not valid JSON."
NOT_UTF8 = "The JSON must be UTF-8 text."
NO_OBJECT = "The body must be a JSON object."


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One app for the module, without tables: reading JSON asks no database."""
    return make_app(tmp_path_factory.mktemp("jsonbody"))


def body_refusal(app, raw: bytes) -> BadRequest:
    """What `json_body` raises for a request with this body (an API body, the preview)."""
    with app.test_request_context(method="POST", data=raw, content_type="application/json"):
        with pytest.raises(BadRequest) as caught:
            jsonbody.json_body()
    return caught.value


def import_refusal(app, raw: bytes) -> BadRequest:
    """What `loads` raises for an uploaded export, read as the import reads it."""
    with app.test_request_context():
        with pytest.raises(BadRequest) as caught:
            jsonbody.loads(raw, hook=jsonbody.unique_pairs, max_number=jsonbody.MAX_NUMBER)
    return caught.value


def encoded(value) -> bytes:
    return json.dumps(value).encode()


# ------------------------------------------------------------------------------ API bodies

@pytest.mark.parametrize("raw, message", [
    (b"", NOT_JSON), (b"{", NOT_JSON), (b"nope", NOT_JSON),
    (b'{"out_order": [0, 1], "card_points": [NaN, null]}', NOT_JSON),
    (b"[1, 2]", NO_OBJECT), (b"[]", NO_OBJECT), (b'"text"', NO_OBJECT), (b"null", NO_OBJECT),
    (b"1e999999", NO_OBJECT),  # Infinity: no object either
    (b"\xff\xfe", NOT_UTF8), (b"\x00\xff", NOT_UTF8),
    (b'{"out_order": [0, 1], "x": "\xff"}', NOT_UTF8),
    (b'{"a": ' * 5000, DEEP),  # deeper than Python's own limit
    (b'{"a": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", DEEP),
])
def test_a_body_that_is_no_json_object_is_refused_as_the_body(app, raw, message):
    refused = body_refusal(app, raw)
    assert (refused.message, refused.field) == (message, "body")


def test_a_json_object_is_read_and_a_key_given_twice_keeps_both_values(app):
    raw = b'{"out_order": [0, 1], "calls": {"0": "tichu", "0": "grand"}}'
    with app.test_request_context(method="POST", data=raw, content_type="application/json"):
        body = jsonbody.json_body()
    assert body["out_order"] == [0, 1] and body["calls"]["0"] == ["tichu", "grand"]
    assert isinstance(body["calls"]["0"], jsonbody.Repeated)


@pytest.mark.parametrize("value", [nested(MAX_DEPTH + 5), nested(MAX_DEPTH + 1)])
def test_a_body_nested_too_deeply_names_the_innermost_part(app, value):
    refused = body_refusal(app, encoded(value))
    assert refused.message == DEEP
    assert refused.field.startswith("…") and refused.field.endswith("[0][0]")
    assert len(refused.field) == jsonbody.PATH_SHOWN
    with app.test_request_context():  # MAX_DEPTH levels are read, one more is not
        jsonbody.check(nested(MAX_DEPTH - 1))
        with pytest.raises(BadRequest):
            jsonbody.check(nested(MAX_DEPTH))


@pytest.mark.parametrize("value, message, field", [
    ({"out_order": [0, 1], "calls": {"0": "tichu\x00"}}, "“calls.0” contains a NUL character.",
     "calls.0"),
    ({"play": ["6j\x00"]}, "“play[0]” contains a NUL character.", "play[0]"),
    ({"out_order": [0, 1], "x\x00": 1}, "A name in the JSON contains a NUL character.", "body"),
])
def test_a_nul_character_is_refused_naming_where(app, value, message, field):
    refused = body_refusal(app, encoded(value))
    assert (refused.message, refused.field) == (message, field)


LONG = "k" * 5000


@pytest.mark.parametrize("value", [
    {LONG: "NUL\x00"},  # a name of 5,000 characters above a NUL
    {"calls": {LONG: ["\x00"]}},
    {LONG: {"x": functools.reduce(lambda inner, _: [inner], range(40), 1)}},  # too deep
])
def test_a_long_name_is_not_quoted_back_in_full(app, value):
    refused = body_refusal(app, encoded(value))
    assert len(refused.message) < 160 and len(refused.field) <= jsonbody.PATH_SHOWN
    assert "k" * 19 + "…" in refused.field or refused.field.startswith("…")
    assert "k" * 21 not in refused.message + refused.field


# ------------------------------------------------------------------------------ imports

@pytest.mark.parametrize("raw, message, field", [
    (export(lambda m: m["hands"][0].update(number=HUGE)),
     "“matches[0].hands[0].number” is too large a number.", "matches[0].hands[0].number"),
    (export(lambda m: m["hands"][0].update(version=HUGE)),
     "“matches[0].hands[0].version” is too large a number.", "matches[0].hands[0].version"),
    (export(lambda m: m.update(target=HUGE)), "“matches[0].target” is too large a number.",
     "matches[0].target"),
    (b'{"format": "tichu-scorer", "n": 1e999}', "“n” is too large a number.", "n"),
    (export(lambda m: m["players"].__setitem__(0, "A\x00")),
     "“matches[0].players[0]” contains a NUL character.", "matches[0].players[0]"),
    (export(lambda m: m["log"][0].update(summary="\x00")),
     "“matches[0].log[0].summary” contains a NUL character.", "matches[0].log[0].summary"),
    (b"[" * 100_000 + b"]" * 100_000, DEEP, "body"),
    (b'{"format": "tichu-scorer", "n": 1' + b"0" * 5000 + b"}", NOT_JSON, "body"),
    (b"\xff\xfe{}", NOT_UTF8, "body"),
])
def test_an_export_no_app_wrote_is_refused_before_it_is_checked(app, raw, message, field):
    refused = import_refusal(app, raw)
    assert (refused.message, refused.field) == (message, field)


def test_an_export_nested_too_deeply_in_its_log_names_where(app):
    refused = import_refusal(app, export(lambda m: m["log"][0].update(after=nested(MAX_DEPTH))))
    assert refused.message == DEEP and refused.field.endswith("[0][0]")


def test_an_import_takes_numbers_up_to_max_number_and_a_byte_order_mark(app):
    with app.test_request_context():
        data = jsonbody.loads(b"\xef\xbb\xbf" + encoded({"n": jsonbody.MAX_NUMBER}),
                              hook=jsonbody.unique_pairs, max_number=jsonbody.MAX_NUMBER)
        assert data == {"n": 2**53 - 1}
        assert import_refusal(app, encoded({"n": -jsonbody.MAX_NUMBER - 1})).field == "n"
