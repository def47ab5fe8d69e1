"""The body checks every JSON passes (tichu_scorer/scoring/body.py), on the server and in the
phone's core: what the server refuses with a 400 naming the field, the phone's core refuses
with the same answer, word for word, in English and German."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import new_match
from tichu_scorer.core import answers
from tichu_scorer.game import i18n
from tichu_scorer.scoring.body import MAX_DEPTH, BadBody, check

LOCALES = str(Path(answers.__file__).parent.parent / "translations")


def nested(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("value, field", [
    ({"calls": {"0\x00": "tichu"}}, "calls"),
    ({"calls": {"0": "tichu\x00"}}, "calls.0"),
    ({"calls": {"\ud800": "tichu"}}, "calls"),
    ({"out_order": ["\udfff"]}, "out_order[0]"),
    ({"a": nested(8)}, "a" + "[0]" * 8),  # (nested: 8 levels of lists in "a", 9 deep)
    ({"a": nested(MAX_DEPTH)}, "…" + ("[0]" * MAX_DEPTH)[-79:]),  # the path's inner end
])
def test_a_body_no_honest_client_sends_is_refused_naming_where(value, field):
    if field == "a" + "[0]" * 8:
        check(value)  # within the bound
        return
    with pytest.raises(BadBody) as refused:
        check(value)
    assert refused.value.field == field and refused.value.answer()[1] == 400


def test_a_sound_body_passes_and_numbers_are_bounded_only_when_asked():
    body = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [10**30, 5],
            "note": "Grüße 🀄", "deep": nested(MAX_DEPTH - 2)}
    check(body)
    with pytest.raises(BadBody) as large:
        check(body, max_number=2**53 - 1)
    assert large.value.field == "card_points[0]"


PREVIEW_BODIES = [
    {"out_order": [0, 1], "calls": {"0\x00": "tichu"}},
    {"out_order": [0, 1], "calls": {"0": "tichu"}, "note": "\ud83c"},
    {"out_order": [0, 1], "card_points": nested(40)},
    '{"out_order": [0, 1], "card_points": %s}' % ("[" * 1200 + "]" * 1200),  # past
]  # Python's own limit: as text


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("body", PREVIEW_BODIES)
def test_the_phones_preview_refuses_what_the_server_refuses(client, monkeypatch, body, lang):
    monkeypatch.setattr(i18n, "_translator", i18n._translator)  # the phone's language after
    url = new_match(client)
    text = body if isinstance(body, str) else json.dumps(body)
    server = client.post(url + "/hands/preview", data=text,
                         headers={"Accept-Language": lang, "Content-Type": "application/json"})
    facts = json.loads(client.get(url).get_data(as_text=True).split('data-facts="')[1]
                       .split('"')[0].replace("&#34;", '"').replace("&quot;", '"'))
    request = '{"op": "preview", "lang": "%s", "facts": %s, "body": %s}' % (
        lang, json.dumps(facts), text)
    phone = json.loads(answers.phone(request, LOCALES, None))["ok"]
    assert server.status_code == 400
    assert phone == [server.get_json(), 400]
    if lang == "de":
        assert phone[0]["error"] != server.get_json()["error"].encode("ascii", "ignore")


@pytest.mark.parametrize("body", [
    {"trick": [], "play": ["8s\x00"], "hand": []},
    {"trick": [{"cards": ["4j"]}], "play": [], "hand": [], "wish": "\udc00"},
])
def test_the_phones_referee_refuses_what_the_server_refuses(client, monkeypatch, body):
    monkeypatch.setattr(i18n, "_translator", i18n._translator)
    server = client.post("/api/v1/referee/check", data=json.dumps(body),
                         headers={"Content-Type": "application/json"})
    phone = json.loads(answers.phone(json.dumps({"op": "judge", "body": body}), LOCALES,
                                     None))["ok"]
    assert server.status_code == 400 and phone == [server.get_json(), 400]
