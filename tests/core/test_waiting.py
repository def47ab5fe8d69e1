"""`waiting`: hands waiting on a phone, scored in turn as the server will score them, and
the match page's regions drawn as the server draws them once the hands arrive."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.conftest import hand_form, post_hand
from tichu_scorer.core import answers
from tichu_scorer.core.waiting import waiting
from tichu_scorer.scoring import RULE_BOOK
from tichu_scorer.scoring.state import MatchState


def summed(*listed):
    """A match's state as the page hands it to the phone (`MatchState.as_list`)."""
    return MatchState.from_dict(listed)


NANKING = summed("nanking", ("Ann", "Bob", "Cy", "Dee"), 500, None, 3, (300, 100), False)
LOCALES = str(Path(answers.__file__).parent.parent / "translations")


def test_waiting_hands_move_the_totals_and_end_the_match_as_the_server_would():
    state = waiting(NANKING, [
        {"out_order": [1, 3], "calls": {}},  # B's double victory: 300 : 300
        None,  # queued without a body: takes its number, counts nothing
        {"out_order": [0, 2]},  # A's double victory: 500 : 300, the target reached
        {"out_order": [9]},  # refused: never counted
    ], page={"hand_url": "/m/hands/new", "rules_url": "/rules"})
    assert [h and h["status"] for h in state["hands"]] == [200, None, 200, 422]
    assert state["facts"]["totals"] == (500, 300) and state["facts"]["finished"]
    assert state["facts"]["hand_count"] == 6
    assert state["shuffler_name"] == "Ann"  # first out of the latest hand scored
    found = state["regions"]
    assert 'data-total="0">500</strong>' in found["totals"] and "provisional" in found["totals"]
    assert "Team A wins!" in found["outcome"] and "who went out first" not in found["outcome"]
    assert "Rematch once the signal is back." in found["outcome"]
    assert "6 hands played" in found["meta"] and "shuffles" not in found["meta"]
    rows = re.findall(r"<tr[^>]*>.*?</tr>", found["waiting"], re.S)
    assert [re.search(r'scope="row">(\d+)', r).group(1) for r in rows] == ["7", "6", "5", "4"]
    assert all('class="waiting"' in r and "Waiting to be sent" in r for r in rows)
    assert '<span class="running">500</span>' in rows[1]  # running totals, what happened
    assert "Double victory" in rows[1] and "Ann out first" in rows[1]
    assert "running" not in rows[0] + rows[2]  # refused, and kept without a body
    assert state["note"] == ("Provisional: 2 hands waiting to be sent are counted. Not counted "
                             "yet: 2 more waiting, scored when sent. With these hands the match "
                             "is over; the server confirms it when they are sent.")
    # the preview of the next hand after them says the match is over ([E1])
    after = MatchState.from_dict(state["facts"])
    answer, status = answers.preview(after, {"out_order": [0, 1], "card_points": [50, None]})
    assert status == 422 and answer["errors"][0]["rule"] == "E1"


def test_the_next_hand_its_shuffler_and_a_tie_at_the_target():
    state = waiting(NANKING, [{"out_order": [1, 3]}, {"out_order": [1, 0],
                                                      "card_points": [50, None]}],
                    page={"hand_url": "/m/hands/new", "rules_url": "/rules"})
    found = state["regions"]
    assert 'data-total="0">350</strong>' in found["totals"]  # 350 : 350 below the target
    assert "Hand 6: who went out first?" in found["outcome"]
    assert "Add hand 6" in found["outcome"] and 'href="/m/hands/new#first=3"' in found["outcome"]
    assert "<strong>Bob</strong> shuffles next" in found["meta"]
    level = summed("nanking", NANKING.settings.names, 500, None, 3, (400, 500), False)
    tied = waiting(level, [{"out_order": [1, 0], "card_points": [100, None]}], page={})
    assert 'href="/rules#E2"' in tied["regions"]["outcome"]  # 500 : 500 at the target


def test_threechu_passes_the_shuffle_to_the_left_with_each_waiting_hand():
    facts = summed("threechu", ("Tom", "Uma", "Vic", "Dummy"), None, 9, 0, (0, 0, 0, 0), False)
    state = waiting(facts, [{"out_order": [3, 1], "card_points": [50, None]}] * 2, page={})
    assert state["shuffler_name"] == "Vic" and state["facts"]["hand_count"] == 2
    assert "<strong>Vic</strong> shuffles and plays the dummy" in state["regions"]["meta"]
    assert "2 of 9 hands" in state["regions"]["meta"]
    assert state["regions"]["waiting"].count('class="waiting notes-row"') == 2


def test_a_hands_bombs_and_note_are_in_its_row():
    state = waiting(NANKING, [{"out_order": [1, 3]}],
                    page={"extras": [{"bombs": [0, 2, 0, 0], "note": " late <b>  night"}]})
    row = state["regions"]["waiting"]
    assert "Bob: 2 bombs" in row and "late &lt;b&gt; night" in row


def test_no_waiting_hand_changes_nothing():
    state = waiting(NANKING, [], page={})
    assert state["facts"] == NANKING.to_dict() and state["shuffler"] is None
    assert state["regions"] == {}
    assert waiting(NANKING, [{"out_order": [1, 3]}])["regions"] == {}  # the form's preview


STORED = {"running": [[200, 0], [300, 100]],  # the server's chart.json: two hands stored
          "hands": [[{"0": "tichu"}, [0, 2]], [{}, [1, 0]]]}


def test_the_chart_goes_on_from_the_stored_hands_with_the_waiting_ones():
    state = waiting(NANKING, [{"out_order": [1, 3], "calls": {"1": "tichu"}},
                              {"out_order": [9]}], STORED, page={})  # the refused one: not drawn
    chart = state["regions"]["chart"]
    assert re.findall(r"<title>(hand [^<]*)</title>", chart) == [
        "hand 1: Ann: Tichu made", "hand 3: Bob: Tichu made"]
    assert re.findall(r'text-anchor="middle">(\d+)<', chart) == ["0", "1", "2", "3"]
    assert 'class="chart provisional"' in chart and 'class="target"' in chart
    assert "chart" not in waiting(NANKING, [{"out_order": [1, 3]}], page={})["regions"]


def test_the_regions_come_in_the_readers_language():
    request = {"op": "waiting", "lang": "de", "facts": NANKING.as_list(), "chart": STORED,
               "bodies": [{"out_order": [1, 3], "calls": {"1": "tichu"}}], "page": {}}
    state = json.loads(answers.phone(json.dumps(request), LOCALES, None))["ok"]
    assert "Score progression" not in state["regions"]["chart"]
    assert "Waiting to be sent" not in state["regions"]["waiting"]
    assert "hands played" not in state["regions"]["meta"]


def test_grand_seigneur_seating_pushes_and_records_follow_the_waiting_hands():
    facts = summed("seigneur", ("Al", "Bo", "Cy", "Di", "Ed"), None, None, 1, (), False)
    state = waiting(facts, [{"out_order": [3, 1, 0, 2]}, {"out_order": [1]}],
                    rankings=[[2, 0, 4, 1, 3]], page={"decimal": ","})
    found = state["regions"]
    assert "Seating for hand 3" in found["seating"]
    assert "<li><strong>Great Lord</strong>: Di</li>" in found["seating"]
    assert "<strong>Ed</strong> (Wretch) pushes" in found["seating"]
    assert "2,50" in found["records"] or "3,00" in found["records"]
    assert found["played"] == "2 hands played"
    assert "Di › Bo › Al › Cy › Ed" in found["waiting"]
    assert state["note"].startswith("Provisional: the hand waiting to be sent is shown.")


# The phone's regions and the server's page once the same hands are sent

def region(page: str, name: str) -> str:
    """The inside of the element marked data-region=`name` (its own tag counted)."""
    start = re.search(rf'<(\w+)[^>]*data-region="{name}"[^>]*>', page)
    assert start, name
    tag, depth, at = start.group(1), 1, start.end()
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", page[at:]):
        depth += -1 if found.group(1) else 1
        if not depth:
            return page[at:at + found.start()]
    raise AssertionError(name)


def served(text: str) -> str:
    """A region as the server's page has it, without what only a stored hand has."""
    text = re.sub(r'<a class="edit-link"[^>]*>(\d+)<span aria-hidden="true"> ✎</span></a>',
                  r"\1", text)
    text = re.sub(r'<form method="post".*?</form>', "", text, flags=re.S)
    return " ".join(re.sub(r'\s+id="hand-\d+"', "", text).split())


def drawn(text: str, name: str = "") -> str:
    """A region as the phone drew it, without its marks of a hand not sent yet (and the
    outcome's "Rematch once the signal is back." in place of the server's form)."""
    text = re.sub(r'(?: |<br>)<small class="waiting-mark">[^<]*</small>', "", text)
    if name == "outcome":
        text = re.sub(r'<p class="hint">[^<]*</p>', "", text)
    return " ".join(text.replace(' class="waiting"', "").replace("waiting ", "").replace(
        " provisional", "").split())


# Each game: the new match's form, a stored hand's form then the waiting hands' forms and
# the same hands as the phone keeps their bodies, the regions its page has
GAMES = {
    "nanking": (["Ann", "Bob", "Cy", "Dee"], {"target": "500"},
                [hand_form((1, 3)), hand_form((0, 2), calls={0: "tichu"}),
                 hand_form((1, 0), a=50), hand_form((0, 2))],
                [{"out_order": [1, 3]}, {"out_order": [0, 2], "calls": {"0": "tichu"}},
                 {"out_order": [1, 0], "card_points": [50, None]}, {"out_order": [0, 2]}],
                ("totals", "meta", "outcome", "chart")),
    "threechu": (["Tom", "Uma", "Vic"], {"variant": "threechu", "length": "hands", "hands": "3"},
                 [hand_form((3, 1), {"3": "tichu"}, a=50), hand_form((0, 2), {"0": "grand"}),
                  hand_form((2, 0), a=25)],
                 [{"out_order": [3, 1], "calls": {"3": "tichu"}, "card_points": [50, None]},
                  {"out_order": [0, 2], "calls": {"0": "grand"}},
                  {"out_order": [2, 0], "card_points": [25, None]}],
                 ("totals", "meta", "outcome", "chart")),
    "seigneur": (["Al", "Bo", "Cy", "Di", "Ed"], {"variant": "seigneur"},
                 [{"place_1": "2", "place_2": "0", "place_3": "4", "place_4": "1"},
                  {"place_1": "3", "place_2": "1", "place_3": "0", "place_4": "2"},
                  {"place_1": "1", "place_2": "3", "place_3": "4", "place_4": "0"}],
                 [{"out_order": [2, 0, 4, 1]}, {"out_order": [3, 1, 0, 2]},
                  {"out_order": [1, 3, 4, 0]}],
                 ("played", "outcome", "seating", "records")),
}


def phone_page(client, url: str, lang: str, bodies, **page) -> dict:
    """What the phone's core draws on the match page at `url`, as the server drew it now,
    with the hands `bodies` waiting (core-client.js passes the page's facts, chart,
    Grand Seigneur's orders and addresses)."""
    before = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    attribute = re.compile(r'data-(facts|rankings)="([^"]*)"')
    data = {k: json.loads(html.unescape(v)) for k, v in attribute.findall(before) if v}
    request = {"op": "waiting", "lang": lang, "facts": data["facts"], "bodies": bodies,
               "chart": client.get(url + "/chart.json").get_json(),
               "rankings": data.get("rankings"),
               "page": {"hand_url": url + "/hands/new", "rules_url": "/rules",
                        "decimal": "," if lang == "de" else "."} | page}  # as the browser's
    return json.loads(answers.phone(json.dumps(request), LOCALES, None))["ok"]


def same_page(state: dict, after: str, names) -> None:
    """The phone's regions equal the server's page `after`, its waiting rows the top ones."""
    for name in names:
        assert drawn(state["regions"][name], name) == served(region(after, name)), name
    rows = served(re.search(r'<tbody data-region="waiting"></tbody>\s*<tbody>(.*?)</tbody>',
                            after, re.S).group(1))
    assert rows.startswith(drawn(state["regions"]["waiting"])), (rows, state["regions"])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_the_phones_regions_are_the_servers_page_once_the_hands_arrive(client, game, lang):
    names, settings, forms, bodies, shown = GAMES[game]
    data = {f"seat_{i}": n for i, n in enumerate(names)}
    url = client.post("/matches/new", data=data | settings).headers["Location"]
    post_hand(client, url, forms[0])
    state = phone_page(client, url, lang, bodies[1:])
    assert state["facts"]["finished"] != (game == "seigneur")  # a ranking game never ends
    for form in forms[1:]:
        post_hand(client, url, form)
    same_page(state, client.get(url, headers={"Accept-Language": lang}).get_data(
        as_text=True), shown)


def test_a_stored_hand_edited_while_others_wait_is_counted_under_them(client):
    """An edit needs the server; the page it leads back to carries the edited facts and
    chart, from which the phone draws the hands still waiting."""
    names, settings, forms, bodies, shown = GAMES["nanking"]
    url = client.post("/matches/new", data={f"seat_{i}": n for i, n in enumerate(names)}
                      | settings).headers["Location"]
    post_hand(client, url, forms[0])
    before = phone_page(client, url, "en", bodies[1:3])
    edited = hand_form((0, 1), a=65) | {"version": "1"}  # B's double victory was A's hand
    assert client.post(url + "/hands/1/edit", data=edited).status_code == 303
    state = phone_page(client, url, "en", bodies[1:3])
    assert state["regions"]["totals"] != before["regions"]["totals"]
    for form in forms[1:3]:
        post_hand(client, url, form)
    same_page(state, client.get(url).get_data(as_text=True), shown)


def test_a_tournament_tables_end_leads_back_to_the_tournament_as_the_server_draws_it(client):
    from tests.views.test_tournaments import start, tables
    tournament = start(client, ["A", "B", "C", "D"], rounds=2, hands=1)
    client.post(tournament + "/draw", data={"round": 1})
    (url,) = tables(client, tournament, 1)
    page = client.get(url).get_data(as_text=True)
    back = html.unescape(re.search(r'data-tournament-url="([^"]*)"', page).group(1))
    state = phone_page(client, url, "en", [{"out_order": [0, 1], "card_points": [50, None]}],
                       tournament_url=back)
    assert state["facts"]["finished"] and "Rematch" not in state["regions"]["outcome"]
    post_hand(client, url, hand_form((0, 1), a=50))
    assert drawn(state["regions"]["outcome"], "outcome") == served(region(client.get(url).get_data(
        as_text=True), "outcome"))


HOUSE = {"nanking": {"house": "club"}, "threechu": {"house": "club"},
         "seigneur": {}}


@pytest.mark.parametrize("game", GAMES)
def test_the_phones_state_is_the_servers_once_the_hands_arrive(app, client, game):
    """The state the phone counts (the page's data-facts, then its waiting hands) is the
    state the server stores once they are sent, and the state its hands replayed give."""
    from tichu_scorer.extensions import db
    from tichu_scorer.matches.ending import state_of
    from tichu_scorer.matches.hand_entry import stored_state
    from tichu_scorer.models import Match

    names, settings, forms, bodies, _shown = GAMES[game]
    data = {f"seat_{i}": n for i, n in enumerate(names)} | settings | HOUSE[game]
    url = client.post("/matches/new", data=data).headers["Location"]
    post_hand(client, url, forms[0])
    phone = phone_page(client, url, "en", bodies[1:])
    for form in forms[1:]:
        assert post_hand(client, url, form).status_code == 303
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        served, replayed = stored_state(match), state_of(match)
        page = client.get(url).get_data(as_text=True)
        listed = json.loads(html.unescape(re.search(r'data-facts="([^"]*)"', page).group(1)))
        assert MatchState.from_dict(listed) == served
        assert MatchState.from_dict(phone["facts"]) == served
        assert json.loads(json.dumps(replayed.to_dict())) == phone["facts"] | {
            k: list(v) for k, v in phone["facts"].items() if isinstance(v, tuple)}
        assert served.settings.house == match.house and (game == "seigneur") == (
            served.settings.house == RULE_BOOK)
