"""docs/openapi.json, the API's machine-readable contract: a valid OpenAPI 3.1 document,
served as kept in the repository, and in agreement with docs/API.md and the app's routes.
(Schemathesis fuzzes the app from it in test_openapi_fuzz.py.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
import schemathesis

from tichu_scorer.core import answers
from tichu_scorer.engine.cards import DECK, RANK_OF_TEXT, spellings

DOCS = Path(__file__).resolve().parents[2] / "docs"
SPEC = json.loads((DOCS / "openapi.json").read_text(encoding="utf-8"))
API_MD = (DOCS / "API.md").read_text(encoding="utf-8")
URL = "/api/v1/openapi.json"
SCORE, REFEREE, DRAW = "/api/v1/score", "/api/v1/referee/check", "/api/v1/tournaments/draw"


def schema(name: str) -> dict:
    return SPEC["components"]["schemas"][name]


def validator(name: str) -> jsonschema_rs.Validator:
    """A validator of one of the document's schemas, its references resolved in it."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": SPEC["components"]})


def section(endpoint: str) -> str:
    """The part of API.md about one endpoint."""
    start = API_MD.index(f"## POST {endpoint}")
    end = API_MD.find("\n## ", start + 1)
    return API_MD[start:end if end > 0 else len(API_MD)]


def table(text: str, after: str) -> dict[str, str]:
    """The markdown table after the line `after`: field -> its type column."""
    rows = text[text.index(after):].split("\n\n")[1]
    return {m[1]: m[2].strip() for m in re.finditer(r"^\| `(\w+)` \|([^|]*)\|", rows, re.M)}


def example_keys(text: str, label: str) -> list[str]:
    """The names in the inline JSON example after `label` (it may wrap over lines)."""
    found = re.search(re.escape(label) + r"\s*`(\{.*?\})`", text, re.S)
    assert found, label
    return re.findall(r'"(\w+)":', found.group(1))


# --- (a) a valid document -----------------------------------------------------------------

def test_schemathesis_loads_a_valid_openapi_31_document():
    loaded = schemathesis.openapi.from_path(DOCS / "openapi.json")
    loaded.validate()  # against the OpenAPI 3.1 meta-schema; raises on an error
    assert SPEC["openapi"].startswith("3.1.")
    assert {op.label for op in (result.ok() for result in loaded.get_all_operations())} == {
        f"{method.upper()} {path}" for path, item in SPEC["paths"].items() for method in item}


def test_every_schema_is_valid_json_schema_and_every_reference_resolves():
    for name, part in SPEC["components"]["schemas"].items():
        assert jsonschema_rs.meta.is_valid(part), name
    refs = re.findall(r'"\$ref": "#/([^"]+)"', json.dumps(SPEC))
    assert refs
    for ref in refs:
        node = SPEC
        for key in ref.split("/"):
            node = node[key]  # a KeyError names the dangling reference


@pytest.mark.parametrize("card", DECK, ids=repr)
def test_the_card_pattern_reads_what_the_engine_reads(card):
    for word in spellings(card) + [f" {spellings(card)[0]} "]:
        assert validator("Card").is_valid(word), word
    assert validator("CanonicalCard").is_valid(repr(card))


@pytest.mark.parametrize("word", ["1j", "11s", "5x", "j5", "", "PHX", "M", "5 j j", "Dj"])
def test_the_card_pattern_refuses_what_the_engine_refuses(word):
    assert not validator("Card").is_valid(word)
    answer, status = answers.judge({"play": [word]}, None)  # as the referee's API judges it
    assert status == 400 and answer["field"] == "play"


def test_the_rank_schema_takes_every_rank():
    ranks = [*RANK_OF_TEXT, *map(str, range(2, 11)), *range(2, 15), "q", " 8 ", None, ""]
    assert all(validator("Rank").is_valid(rank) for rank in ranks)
    assert not any(validator("Rank").is_valid(r) for r in ["1", "11", "MJ", 1, 15, True])


# --- served as kept -------------------------------------------------------------------------

def test_the_document_is_served_as_kept_and_revalidated(client):
    r = client.get(URL)
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.data == (DOCS / "openapi.json").read_bytes()
    assert r.headers["Cache-Control"] == "no-cache" and r.headers["ETag"]
    again = client.get(URL, headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and not again.data


def test_schemathesis_loads_the_served_document(app):
    loaded = schemathesis.openapi.from_wsgi(URL, app)
    assert loaded.raw_schema == SPEC


# --- (b) in agreement with docs/API.md and the app -------------------------------------------

def documented_operations() -> set[str]:
    return set(re.findall(r"^## ((?:GET|POST|PUT|PATCH|DELETE) /api/\S+)$", API_MD, re.M))


def specified_operations() -> set[str]:
    return {f"{method.upper()} {path}" for path, item in SPEC["paths"].items() for method in item}


def test_the_document_has_every_endpoint_of_api_md():
    assert documented_operations() >= {f"POST {SCORE}", f"POST {REFEREE}", f"POST {DRAW}"}
    assert specified_operations() == documented_operations() | {f"GET {URL}"}
    assert URL in API_MD  # where to find it


def test_the_document_has_every_api_route_of_the_app(app):
    def path(rule: str) -> str:  # Flask's <name> as OpenAPI's {name}
        return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
    routes = {f"{method} {path(rule.rule)}" for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == specified_operations()


@pytest.mark.parametrize("endpoint, request_schema", [(SCORE, "Hand"), (REFEREE, "Question"),
                                                      (DRAW, "DrawRequest")])
def test_every_documented_request_field_is_specified(endpoint, request_schema):
    fields = table(section(endpoint), "Request")
    assert fields and set(fields) <= set(schema(request_schema)["properties"])
    required = {f for f, kind in fields.items() if "optional" not in kind}
    # API.md's score table names the fields a client sends; the core defaults each one
    assert set(schema(request_schema).get("required", [])) <= required


def test_the_verdict_is_as_documented():
    fields = table(section(REFEREE), "Response 200:")
    verdict = schema("Verdict")
    assert list(fields) == [f for f in verdict["properties"] if f in fields]
    assert verdict["required"] == [f for f, kind in fields.items() if "optional" not in kind]
    row = re.search(r"^\| `combination` \|.*$", section(REFEREE), re.M).group(0)
    kinds = re.findall(r"`(\w+)`", row.split("`kind` (", 1)[1].split(")")[0])
    assert kinds == schema("Combination")["properties"]["kind"]["enum"]
    parts = re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", row.split("as read:", 1)[1]))
    assert parts == list(schema("Combination")["properties"])


def test_the_score_is_as_documented():
    text = section(SCORE)
    keys = example_keys(text, "Response 200:")
    score, call = schema("Score"), schema("CallResult")
    top = [k for k in keys if k in score["properties"]]
    assert top == [k for k in score["properties"] if k in top]  # in the documented order
    assert set(keys) - set(top) == set(call["required"])
    for variant_field in ("triple_victory", "player_scores"):
        assert f'"{variant_field}"' in text and variant_field in score["properties"]


def test_the_errors_are_as_documented():
    assert example_keys(section(REFEREE), "Response 400:") == schema("Error")["required"]
    assert example_keys(section(SCORE), "Response 422:") == ["errors", *schema("Problem")[
        "required"]]
    assert example_keys(section(DRAW), "Response 422:") == ["errors", *schema("Problem")[
        "required"]]
    assert example_keys(section(DRAW), "Response 400:") == schema("Error")["required"]


def test_the_draw_is_as_documented():
    text = section(DRAW)
    keys = example_keys(text, "Response 200:")
    assert [k for k in keys if k in schema("Draw")["properties"]] == ["rounds", "repeats"]
    assert set(keys) >= {"tables", "byes", "partners", "opponents"}
    for added in ("seed", "unmet"):  # the fields the project adds, named on the page
        assert f'`"{added}"' in text and added in schema("Draw")["properties"]


@pytest.mark.parametrize("url, body, name", [
    (SCORE, {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [55, None]},
     "Score"),
    (SCORE, {"variant": "threechu", "dummy": 3, "out_order": [0, 1], "card_points": [60, None]},
     "Score"),
    (SCORE, {"out_order": [0, 0], "card_points": [33, None]}, "Problems"),
    (REFEREE, {"trick": [{"cards": ["4j"], "seat": 1}], "play": [], "hand": ["8s", "Kj"],
               "wish": "8", "seat": 2}, "Verdict"),
    (REFEREE, {"play": ["4j", "5s", "PH", "7t", "8t"]}, "Verdict"),
    (REFEREE, {"play": ["5j", "5x"]}, "Error"),
    (DRAW, {"players": list("ABCDEFG"), "rounds": 3, "seed": 1}, "Draw"),
    (DRAW, {"players": list("ABCD"), "rounds": 5, "seed": 1}, "Draw"),
    (DRAW, {"players": ["A", "a"], "rounds": 0}, "Problems"),
    (DRAW, {"players": list("ABCD"), "rounds": 1, "table": 1}, "Error"),
])
def test_answers_match_the_document_in_its_order(client, url, body, name):
    answer = client.post(url, json=body).get_json()
    assert validator(name).is_valid(answer), answer
    properties = list(schema(name)["properties"])
    given = [k for k in answer if k in properties]
    assert given == [k for k in properties if k in given]


def documented_response(path: str, method: str, status: int) -> dict:
    """The document's response for this status, its reference followed."""
    response = SPEC["paths"][path][method]["responses"][str(status)]
    while "$ref" in response:
        node = SPEC
        for key in response["$ref"].removeprefix("#/").split("/"):
            node = node[key]
        response = node
    return response


@pytest.mark.parametrize("method, path, kwargs, status", [
    ("get", SCORE, {}, 405),
    ("delete", REFEREE, {}, 405),
    ("post", URL, {}, 405),
    ("post", SCORE, {"data": b"[" * 70_000, "content_type": "application/json"}, 413),
    ("post", REFEREE, {"data": b"x" * 70_000, "content_type": "application/json"}, 413),
    ("post", SCORE, {"data": b"not json", "content_type": "application/json"}, 400),
    ("post", REFEREE, {"data": b"[]", "content_type": "application/json"}, 400),
    ("get", DRAW, {}, 405),
    ("post", DRAW, {"data": b"[" * 600_000, "content_type": "application/json"}, 413),
    ("post", DRAW, {"json": {"players": "ABCD", "rounds": 1}}, 400),
    ("post", DRAW, {"json": {"players": ["A"], "rounds": 1}}, 422),
])
def test_error_answers_are_documented(client, method, path, kwargs, status):
    r = getattr(client, method)(path, **kwargs)
    assert r.status_code == status
    documented = documented_response(path, "post" if path != URL else "get", status)
    for header, spec in documented.get("headers", {}).items():
        assert not spec.get("required") or r.headers.get(header), header
    body = documented["content"]["application/json"]["schema"]
    assert jsonschema_rs.Draft202012Validator(
        {**body, "components": SPEC["components"]}).is_valid(r.get_json()), r.get_json()
