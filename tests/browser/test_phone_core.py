"""The phone's copy of the core (Pyodide in a Web Worker, headless Chromium) against the
server, on the same hypothesis-drawn hands of every variant and referee questions: any
difference in scores, totals, the result, problems (rule ids, messages, fields) or
verdicts fails. The cases go to the worker in batches of a hundred, one message each.

The runtime is fetched by the set-up (`make test`, tools/fetch_pyodide.py): in CI (CI=1)
a missing bundle fails these tests; elsewhere they skip only when it could not be fetched.
"""

from __future__ import annotations

import html as html_lib
import json
import os
import random
import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.browser.conftest import CHROMIUM, browser_app, serving
from tests.engine.positions import position
from tichu_scorer.engine.plays import legal_plays
from tichu_scorer.extensions import db
from tichu_scorer.matches import hand_entry
from tichu_scorer.models import Match
from tichu_scorer.views.core import bundle, worker_url

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine"),
              pytest.mark.core]

BATCH = 100
BATCHES = 6  # 600 hands and 600 questions, here and in CI
# No shrinking: each step would be a batch more through the browser; a failure names its
# case (a hand and its match, or a question) whole.
BATCHED = settings(max_examples=BATCHES, deadline=None, database=None,
                   phases=[Phase.explicit, Phase.generate],
                   suppress_health_check=list(HealthCheck))

PLAYERS = {"nanking": ["Ann", "Bob", "Cy", "Dee"], "threechu": ["Tom", "Uma", "Vic"],
           "tientsin": ["A1", "B1", "A2", "B2", "A3", "B3"],
           "seigneur": ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]}
SETUP = {"nanking": {}, "tientsin": {}, "seigneur": {},
         "threechu": {"length": "hands", "hands": "9"}}

SEAT = st.integers(-1, 7)
HANDS = st.fixed_dictionaries({
    "out_order": st.lists(SEAT, max_size=7) | st.lists(st.integers(0, 6), unique=True,
                                                       min_size=1, max_size=7),
}, optional={
    "calls": st.dictionaries(st.sampled_from(["0", "1", "2", "3", "4", "5", "9", "x"]),
                             st.sampled_from(["tichu", "grand", "none", "no", 3]), max_size=4),
    "card_points": st.lists(st.none() | st.integers(-40, 140).map(lambda n: n - n % 5)
                            | st.integers(-40, 330), min_size=2, max_size=2)
    | st.just([None, None]) | st.just("50"),
    "wish_penalty": st.none() | st.fixed_dictionaries({"offender": SEAT | st.just("1")}),
})
FACTS = st.fixed_dictionaries({
    "variant": st.sampled_from(list(PLAYERS)),
    "hand_count": st.integers(0, 12),
    "totals": st.lists(st.integers(-40, 240).map(lambda n: n * 5), min_size=6, max_size=6),
    "target": st.sampled_from([1000, 500, 50, None]),
    "finished": st.booleans() | st.just(False),
    "lang": st.sampled_from(["en", "de"]),
})
SEATS = {"nanking": 4, "threechu": 4, "tientsin": 6, "seigneur": 7}


@st.composite
def likely_hand(draw, variant):
    """A hand as a table enters it: an out-order of the table's seats, calls of its seats,
    one team's card points (mostly valid), now and then a missed wish."""
    seats = SEATS[variant]
    order = draw(st.permutations(range(seats)))
    body = {"out_order": list(order[:draw(st.integers(1, seats))])}
    body["calls"] = draw(st.dictionaries(st.integers(0, seats - 1).map(str),
                                         st.sampled_from(["tichu", "grand"]), max_size=2))
    points = draw(st.integers(-5, 25).map(lambda n: n * 5) | st.integers(-30, 130))
    body["card_points"] = [points, None] if draw(st.booleans()) else [None, points]
    if draw(st.integers(0, 9)) == 0:
        body["wish_penalty"] = {"offender": draw(st.integers(0, seats - 1))}
    return body


HAND_CASES = st.lists(FACTS.flatmap(lambda f: st.tuples(st.just(f), likely_hand(f["variant"])
                                                        | HANDS)),
                      min_size=BATCH, max_size=BATCH)

CARDS = st.sampled_from(["2j", "2s", "3p", "5j", "5s", "5t", "6j", "7s", "8p", "9t", "10j",
                         "Js", "Qp", "Kt", "Aj", "As", "Ap", "At", "MJ", "DOG", "PH", "DR",
                         "xx", "10s", "10p", "10t", "Jj", "Jp", "Jt", "9j", "9s", "9p"])
QUESTIONS = st.fixed_dictionaries({
    "trick": st.lists(st.fixed_dictionaries({"cards": st.lists(CARDS, max_size=5)}),
                      max_size=3),
    "play": st.lists(CARDS, max_size=6),
}, optional={
    "hand": st.lists(CARDS, max_size=14),
    "wish": st.sampled_from(["8", "Q", "A", "1", "DR"]) | st.none(),
    "variant": st.sampled_from(["nanking", "seigneur", "threechu"]),
    "decks": st.sampled_from([1, 2]),
    "out_of_turn": st.booleans(),
    "strict_wish": st.booleans(),
    "trick_typed": st.just(0),  # stands for a `trick` the API refuses by its type
})


@st.composite
def likely_question(draw):
    """A question as a table asks it: a dealt hand, a combination on the table (or a
    lead), a play the hand can make (or any of its cards), maybe a wish."""
    hand, top, wish = position(random.Random(draw(st.integers(0, 2 ** 32))))
    plays = [p for p in legal_plays(hand, top) if p.cards]
    if plays and draw(st.booleans()):
        play = list(draw(st.sampled_from(plays)).cards)
    else:
        play = draw(st.lists(st.sampled_from(hand), min_size=1, max_size=5, unique=True))
    body = {"trick": [{"cards": [repr(c) for c in top.cards]}] if top else [],
            "play": [repr(c) for c in play], "wish": WISH_WORDS.get(wish)}
    if draw(st.booleans()):
        body["hand"] = [repr(c) for c in hand]
    return body


WISH_WORDS = {n: str(n) for n in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
QUESTION_CASES = st.lists(st.tuples(likely_question() | likely_question() | QUESTIONS,
                                    st.sampled_from(["en", "de"])),
                          min_size=BATCH, max_size=BATCH)


@pytest.fixture(scope="module")
def table(tmp_path_factory, browser):
    """The app (a match of each variant), served, and a page holding the phone's worker."""
    app = browser_app(tmp_path_factory.mktemp("core"))
    with app.app_context():
        if bundle() is None:
            if os.environ.get("CI"):
                pytest.fail("the Pyodide bundle is missing: `make pyodide` must fetch it in CI")
            pytest.skip("the Pyodide bundle could not be fetched (no npm, no "
                        "NPM_CONFIG_REGISTRY, or no network): see docs/OFFLINE_CORE.md")
    client = app.test_client()
    client.get("/")  # a device of its own table
    token = client.get("/csrf-token").get_json()["csrf_token"]
    urls = {}
    for variant, names in PLAYERS.items():
        data = {"variant": variant, "csrf_token": token, "target": "1000"} | SETUP[variant] \
            | {f"seat_{i}": n for i, n in enumerate(names)}
        answer = client.post("/matches/new", data=data)
        assert answer.status_code == 303, answer.get_data(as_text=True)
        urls[variant] = answer.headers["Location"]
    with app.test_request_context():
        url = worker_url()
    # pytest-playwright's browser (Debian's Chromium, tests/browser/conftest.py)
    with serving(app) as base:
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + "/offline")
        page.evaluate("""(url) => {
          window.core = new Worker(url, { type: "module" });
          let next = 0;
          const waiting = new Map();
          window.core.onmessage = (e) => {
            waiting.get(e.data.id)(e.data);
            waiting.delete(e.data.id);
          };
          // the request as JSON text: JavaScript objects would put keys such as "9" and "4"
          // in another order than the server reads them
          window.ask = (text) => new Promise((resolve) => {
            next += 1; waiting.set(next, resolve); window.core.postMessage({ id: next, text });
          });
        }""", url)
        yield app, client, urls, page
        context.close()


def phone(page, items):
    out = page.evaluate("(text) => window.ask(text)", json.dumps({"op": "batch", "items": items}))
    assert "error" not in out, out.get("error")
    return out["answer"]


def _set(app, url, facts):
    """The match as the case has it: its hands so far, totals, target, end."""
    variant = facts["variant"]
    with app.app_context():
        match = db.session.execute(db.select(Match).filter_by(key=url.rsplit("/", 1)[1])
                                   ).scalar_one()
        match.hand_count = facts["hand_count"]
        match.totals = facts["totals"][:match.sides]
        if variant != "threechu":
            match.target = facts["target"] or 1000
        match.finished_at = datetime.now(UTC) if facts["finished"] else None
        match.revision = (match.revision or 0) + 1
        db.session.commit()
        return hand_entry.stored_state(db.session.get(Match, match.id)).to_dict()


def test_the_phone_scores_every_hand_as_the_server(table):
    app, client, urls, page = table
    statuses = []

    @BATCHED
    @given(HAND_CASES)
    def batch(cases):
        served, asked = [], []
        for facts, body in cases:
            url = urls[facts["variant"]]
            stored = _set(app, url, facts)
            answer = client.post(url + "/hands/preview", data=json.dumps(body),
                                 content_type="application/json",
                                 headers={"Accept-Language": facts["lang"]})
            served.append([answer.get_json(), answer.status_code])
            asked.append({"op": "preview", "facts": stored, "body": body,
                          "lang": facts["lang"]})
        for case, server, mine in zip(cases, served, phone(page, asked), strict=True):
            assert mine == server, json.dumps({"case": case, "phone": mine, "server": server})
        statuses.extend(status for _answer, status in served)

    batch()
    assert len(statuses) >= 500
    assert statuses.count(200) >= len(statuses) // 10  # hands scored, not only refused


def test_the_phone_judges_every_question_as_the_server(table):
    _app, client, _urls, page = table
    verdicts = []

    @BATCHED
    @given(QUESTION_CASES)
    def batch(cases):
        served, asked = [], []
        for question, lang in cases:
            body = dict(question)
            if body.pop("trick_typed", None) is not None:
                body["trick"] = 0
            answer = client.post("/api/v1/referee/check", data=json.dumps(body),
                                 content_type="application/json",
                                 headers={"Accept-Language": lang})
            assert answer.status_code in (200, 400)
            served.append([answer.get_json(), answer.status_code])
            asked.append({"op": "judge", "body": body, "lang": lang})
        for case, server, mine in zip(cases, served, phone(page, asked), strict=True):
            assert mine == server, json.dumps({"case": case, "phone": mine, "server": server})
        verdicts.extend(answer.get("legal") for answer, _status in served)

    batch()
    assert len(verdicts) >= 500
    # legal plays, illegal ones and questions that cannot be judged, each in numbers
    assert min(verdicts.count(True), verdicts.count(False), verdicts.count(None)) >= 50


HOUSE_QUESTIONS = [
    {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "hand": ["DR"],
     "house_rules": {"dragon_kept_when_out": True}},
    {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "house_rules": {"dragon_kept_when_out": True}},
    {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "hand": ["DR", "2s"]},
    {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s"], "wish": "8",
     "house_rules": {"wish_penalty": False}},
    {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s"], "wish": "8",
     "house_rules": {"double_victory_points": 100}},
    {"play": ["DR"], "house_rules": {"dragon_kept": True}},
    {"play": ["DR"], "house_rules": {"custom_calls": {"tichu": 400}}},
]


def test_the_phone_judges_house_rules_as_the_server(table):
    """RULES.md §10.1 under Pyodide: the Dragon's gift ([R5]), the wish's cost ([R3],
    [R8]) and a house_rules object the API refuses, answered as the server does."""
    _app, client, _urls, page = table
    asked, served = [], []
    for body in HOUSE_QUESTIONS:
        for lang in ("en", "de"):
            answer = client.post("/api/v1/referee/check", json=body,
                                 headers={"Accept-Language": lang})
            served.append([answer.get_json(), answer.status_code])
            asked.append({"op": "judge", "body": body, "lang": lang})
    assert phone(page, asked) == served
    assert served[0][0]["dragon_gift"] == {"given_away": False, "rule": "R5"}
    assert [status for _answer, status in served[-4:]] == [400] * 4


GS_CASES = st.lists(st.integers(5, 12).flatmap(lambda n: st.fixed_dictionaries({
    "names": st.just([f"N{i}" for i in range(n)]),
    "stored": st.lists(st.permutations(range(n)), max_size=4),
    # as a table enters them (the last one out left out or not), and malformed ones
    "waiting": st.lists(st.permutations(range(n)).flatmap(
        lambda p: st.sampled_from([p, p[:-1], p[:2]]).map(lambda o: {"out_order": list(o)}))
        | HANDS, min_size=1, max_size=3),
    "lang": st.sampled_from(["en", "de"]),
})), min_size=50, max_size=50)


def _shown(html: str) -> dict:
    """What a Grand Seigneur match page shows, as text: the seating, the pushes, the
    records, each hand's finishing order, the count of hands."""
    text = lambda s: " ".join(re.sub(r"<[^>]+>", "", s).split())  # noqa: E731
    seating = re.search(r'<ol class="ranking-list seating">(.*?)</ol>', html, re.S)
    pushes = re.search(r'<ul class="pushes">(.*?)</ul>', html, re.S)
    records = re.search(r'<table class="hands records"( hidden)?>.*?<tbody>(.*?)</tbody>', html,
                        re.S)
    ranks = re.search(r'<table class="hands ranks"[^>]*>.*?<tbody>(.*?)</tbody>', html, re.S)
    return {"title": text(re.search(r'<h2 id="seating">(.*?)</h2>', html, re.S).group(1)),
            "seating": [text(li) for li in re.findall(r"<li>(.*?)</li>", seating.group(1), re.S)]
            if seating else [],
            "pushes": [html_lib.unescape(text(li)) for li in
                       re.findall(r"<li>(.*?)</li>", pushes.group(1), re.S)] if pushes else [],
            "records": [text(tr) for tr in re.findall(r"<tr>(.*?)</tr>", records.group(2), re.S)]
            if records and not records.group(1) else [],  # hidden: none shown
            "orders": [html_lib.unescape(text(td)) for td in
                       re.findall(r'<td class="notes">(.*?)</td>', ranks.group(1), re.S)]
            if ranks else [],
            "played": text(re.search(r"<span data-played[^>]*>(.*?)</span>", html, re.S).group(1))}


def _drawn(stored_page: dict, answer: dict) -> dict:
    """The page as the phone draws the core's answer (core-client.js puts each region in
    its place): the waiting hands' rows above the stored ones, their marks of a hand not
    sent yet left out, and a hand the server would refuse (a row without an order) too."""
    regions = answer["regions"]
    waiting = re.sub(r'<br>|<small class="waiting-mark">.*?</small>', "", regions["waiting"])
    drawn = _shown(f'<span data-played>{regions["played"]}</span>{regions["seating"]}'
                   f'{regions["records"]}<table class="hands ranks"><tbody>{waiting}'
                   "</tbody></table>")
    return drawn | {"orders": [o for o in drawn["orders"] if o] + stored_page["orders"]}


def test_the_phone_shows_grand_seigneur_with_waiting_hands_as_the_server(table):
    """Grand Seigneur's waiting hands: the core's seating, pushes, records, hands and count
    (as the phone draws them) against the server's page once the hands are sent, for every
    table size; a hand the server refuses is left out on both."""
    app, client, _urls, page = table
    token = client.get("/csrf-token").get_json()["csrf_token"]
    stored_total = []

    @settings(max_examples=4, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(GS_CASES)
    def batch(cases):
        before, asked, urls = [], [], []
        for case in cases:
            data = {"variant": "seigneur", "csrf_token": token} | {
                f"seat_{i}": n for i, n in enumerate(case["names"])}
            url = client.post("/matches/new", data=data).headers["Location"]
            with app.test_request_context():
                for order in case["stored"]:
                    match = db.session.execute(db.select(Match).filter_by(
                        key=url.rsplit("/", 1)[1])).scalar_one()
                    assert hand_entry.add_hand(match, {"out_order": list(order)},
                                               match.hand_count + 1).hand is not None
                match = db.session.execute(db.select(Match).filter_by(
                    key=url.rsplit("/", 1)[1])).scalar_one()
                facts = hand_entry.stored_state(match).to_dict()
            before.append(_shown(client.get(url, headers={"Accept-Language": case["lang"]})
                                 .get_data(as_text=True)) if case["stored"] else {"orders": []})
            asked.append({"op": "waiting", "facts": facts, "bodies": case["waiting"],
                          "rankings": [list(o) for o in case["stored"]], "lang": case["lang"],
                          "page": {"decimal": "," if case["lang"] == "de" else ".",
                                   "hand_url": url + "/hands/new"}})
            urls.append(url)
        for case, url, stored_page, mine in zip(cases, urls, before, phone(page, asked),
                                                strict=True):
            # the hands sent, in turn: the server's page after them
            with app.test_request_context():
                for body in case["waiting"]:
                    match = db.session.execute(db.select(Match).filter_by(
                        key=url.rsplit("/", 1)[1])).scalar_one()
                    hand_entry.add_hand(match, body, match.hand_count + 1)
                    db.session.rollback()
            server = _shown(client.get(url, headers={"Accept-Language": case["lang"]})
                            .get_data(as_text=True))
            drawn = _drawn(stored_page, mine)
            assert drawn == server, json.dumps({"case": case, "phone": drawn, "server": server})
            stored_total.append(len(server["orders"]) - len(case["stored"]))

    batch()
    assert len(stored_total) >= 200
    assert sum(1 for n in stored_total if n) >= len(stored_total) // 3  # hands were stored
    assert stored_total.count(0) >= 10  # and refused
