"""`waiting`: hands waiting on a phone, scored in turn as the server will score them, and
the match page's regions drawn as the server draws them once the hands arrive."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.conftest import hand_form, post_hand
from tichu_scorer import answers
from tichu_scorer.answers import MatchFacts
from tichu_scorer.waiting import waiting

NANKING = MatchFacts("nanking", ("Ann", "Bob", "Cy", "Dee"), 500, None, 3, (300, 100), False)
LOCALES = str(Path(answers.__file__).parent / "translations")


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
    after = MatchFacts.from_dict(state["facts"])
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
    level = MatchFacts("nanking", NANKING.names, 500, None, 3, (400, 500), False)
    tied = waiting(level, [{"out_order": [1, 0], "card_points": [100, None]}], page={})
    assert 'href="/rules#E2"' in tied["regions"]["outcome"]  # 500 : 500 at the target


def test_threechu_passes_the_shuffle_to_the_left_with_each_waiting_hand():
    facts = MatchFacts("threechu", ("Tom", "Uma", "Vic", "Dummy"), None, 9, 0, (0, 0, 0, 0), False)
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
    assert state["facts"] == NANKING.as_dict() and state["shuffler"] is None
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
    facts = MatchFacts("seigneur", ("Al", "Bo", "Cy", "Di", "Ed"), None, None, 1, (), False)
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


def drawn(text: str) -> str:
    """A region as the phone drew it, without its marks of a hand not sent yet."""
    text = re.sub(r' <small class="waiting-mark">[^<]*</small>', "", text)
    text = re.sub(r'<p class="hint">[^<]*</p>', "", text)
    return " ".join(text.replace(' class="waiting"', "").replace("waiting ", "").replace(
        " provisional", "").split())


GAMES = {
    "nanking": ({"target": "500"}, [hand_form((1, 3)), hand_form((0, 2), calls={0: "tichu"}),
                                    hand_form((1, 0), a=50), hand_form((0, 2))],
                [{"out_order": [1, 3]}, {"out_order": [0, 2], "calls": {"0": "tichu"}},
                 {"out_order": [1, 0], "card_points": [50, None]}, {"out_order": [0, 2]}]),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_phones_regions_are_the_servers_page_once_the_hands_arrive(client, lang):
    data = {f"seat_{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    response = client.post("/matches/new", data=data | {"target": "500"})
    url = response.headers["Location"]
    head = {"Accept-Language": lang}
    forms, bodies = GAMES["nanking"][1:]
    post_hand(client, url, forms[0])
    before = client.get(url, headers=head).get_data(as_text=True)
    facts = json.loads(html.unescape(re.search(r'data-facts="([^"]*)"', before).group(1)))
    chart = client.get(url + "/chart.json").get_json()
    request = {"op": "waiting", "lang": lang, "facts": facts, "bodies": bodies[1:],
               "chart": chart, "page": {"hand_url": url + "/hands/new", "rules_url": "/rules"}}
    state = json.loads(answers.phone(json.dumps(request), LOCALES, None))["ok"]
    assert state["facts"]["finished"]
    for form in forms[1:]:
        post_hand(client, url, form)
    after = client.get(url, headers=head).get_data(as_text=True)
    for name in ("totals", "meta", "outcome", "chart"):
        assert drawn(state["regions"][name]) == served(region(after, name)), name
    rows = served(re.search(r'<tbody data-region="waiting"></tbody>\s*<tbody>(.*?)</tbody>',
                            after, re.S).group(1))
    assert rows.startswith(drawn(state["regions"]["waiting"])) and rows.count("<tr") > 3
