"""The JSON shapes written in docs/API.md are the ones the API answers: field names, their
order and types are read from the document itself, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
SCORE, REFEREE = "/api/v1/score", "/api/v1/referee/check"


def section(endpoint: str) -> str:
    """The part of API.md about one endpoint."""
    start = DOC.index(f"## POST {endpoint}")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end > 0 else len(DOC)]


def snippet(text: str, label: str) -> str:
    """The inline JSON example after `label` (it may wrap over lines)."""
    return re.search(re.escape(label) + r"\s*`(\{.*?\})`", text, re.S).group(1)


def doc_keys(example: str) -> list[str]:
    return re.findall(r'"(\w+)":', example)


def keys(value) -> list[str]:
    """Every key of a JSON value in order, depth first (a list: its first item)."""
    if isinstance(value, dict):
        return [k for key, item in value.items() for k in [key, *keys(item)]]
    if isinstance(value, list) and value:
        return keys(value[0])
    return []


def table(text: str, after: str) -> dict[str, tuple[str, str]]:
    """The markdown table after the line `after`: field -> (type, meaning)."""
    rows = text[text.index(after):].split("\n\n")[1]
    return {m[1]: (m[2].strip(), m[3].strip())
            for m in re.finditer(r"^\| `(\w+)` \|([^|]*)\|(.*)\|$", rows, re.M)}


TYPES = {"bool": (bool,), "string": (str,), "object or null": (dict, type(None)),
         "array": (list,)}


def test_score_200_is_as_documented(client):
    r = client.post(SCORE, json={"out_order": [0, 1], "calls": {"0": "tichu"},
                                 "card_points": [55, None]})
    assert r.status_code == 200
    example = snippet(section(SCORE), "Response 200:")
    assert keys(r.get_json()) == doc_keys(example)
    assert r.get_json()["calls"] == [{"seat": 0, "call": "tichu", "made": True, "points": 100}]


def test_score_variants_are_as_documented(client):
    text = section(SCORE)
    four = doc_keys(snippet(text, "Response 200:"))
    assert '"triple_victory": bool' in text and "instead of `double_victory`" in text
    r = client.post(SCORE, json={"variant": "tientsin", "out_order": [0, 2, 4],
                                 "calls": {"5": "tichu"}})
    assert r.status_code == 200
    assert keys(r.get_json()) == [k.replace("double_", "triple_") for k in four]
    assert r.get_json()["team_scores"] == [300, -100] and r.get_json()["triple_victory"]

    seats = re.search(r'"player_scores": (\{.*?\})', text, re.S).group(1)
    r = client.post(SCORE, json={"variant": "threechu", "dummy": 3, "out_order": [0, 1],
                                 "card_points": [60, None]})
    assert r.status_code == 200
    assert keys(r.get_json()) == four[:3] + ["calls", "player_scores", *re.findall(
        r'"(\d)": n', seats)]


def test_score_422_is_as_documented(client):
    r = client.post(SCORE, json={"out_order": [0, 0], "card_points": [33, None]})
    assert r.status_code == 422
    example = snippet(section(SCORE), "Response 422:")
    for error in r.get_json()["errors"]:
        assert keys({"errors": [error]}) == doc_keys(example)
        assert re.fullmatch(r"[A-Z]+\d+(\.\d+)*", error["rule"])


@pytest.mark.parametrize("url, body", [(SCORE, [0, 1]), (REFEREE, {"play": 5}),
                                       (SCORE, "not json"), (REFEREE, "not json")])
def test_400_is_as_documented(client, url, body):
    r = client.post(url, json=body) if not isinstance(body, str) else client.post(
        url, data=body, content_type="application/json")
    assert r.status_code == 400
    example = snippet(section(REFEREE), "Response 400:")
    assert keys(r.get_json()) == doc_keys(example)


REFEREE_FIELDS = table(section(REFEREE), "Response 200:")


@pytest.mark.parametrize("body", [
    {"trick": [{"cards": ["4j"], "seat": 1}], "play": [], "hand": ["8s", "Kj"], "wish": "8",
     "seat": 2},  # illegal under [W2]: the one answer with every field
    {"play": ["5j"]},
    {"trick": [{"cards": ["DR"]}], "play": ["PH"]},
])
def test_referee_200_is_as_documented(client, body):
    r = client.post(REFEREE, json=body)
    assert r.status_code == 200
    answer = r.get_json()
    # every documented field but the optional ones, in the documented order; the project
    # may add fields (docs/API.md), so others may stand among them
    required = [f for f, (kind, _) in REFEREE_FIELDS.items() if "optional" not in kind]
    assert [f for f in answer if f in REFEREE_FIELDS] == [
        f for f in REFEREE_FIELDS if f in required or f in answer]
    for field in REFEREE_FIELDS.keys() & answer.keys():
        kind = REFEREE_FIELDS[field][0].replace(", optional", "")
        assert isinstance(answer[field], TYPES[kind]), (field, answer[field])
    if answer["rule"] == "W2" and not answer["legal"]:
        assert "fulfilling_play" in answer


COMBINATION = REFEREE_FIELDS["combination"][1]
KINDS = re.findall(r"`(\w+)`", COMBINATION.split("`kind` (", 1)[1].split(")")[0])
PLAYS = {"single": ["5j"], "pair": ["5j", "5s"], "stairs": ["5j", "5s", "6j", "6s"],
         "trio": ["5j", "5s", "5p"], "full_house": ["5j", "5s", "5p", "9j", "9s"],
         "straight": ["3j", "4s", "5p", "6t", "7j"], "bomb": ["5j", "5s", "5p", "5t"],
         "dog": ["DOG"], "pass": []}


def test_every_documented_kind_is_tested():
    assert KINDS == list(PLAYS)


@pytest.mark.parametrize("kind", KINDS)
def test_the_combination_is_as_documented(client, kind):
    trick = [] if kind != "pass" else [{"cards": ["3j"]}]
    answer = client.post(REFEREE, json={"trick": trick, "play": PLAYS[kind]}).get_json()
    combination = answer["combination"]
    assert combination["kind"] == kind
    documented = re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", COMBINATION))
    assert documented == ["kind", "rank", "length", "phoenix_as"]
    assert list(combination) == documented[:3]  # phoenix_as only for a Phoenix
    assert isinstance(combination["rank"], (str, type(None)))


def test_a_phoenix_reading_is_as_documented(client):
    answer = client.post(REFEREE, json={"play": ["4j", "5s", "PH", "7t", "8t"]}).get_json()
    assert answer["combination"] == {"kind": "straight", "rank": "8", "length": 5,
                                     "phoenix_as": "6"}
    assert "`phoenix_as` when the Phoenix stands for a rank" in COMBINATION
