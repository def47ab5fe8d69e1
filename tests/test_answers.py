"""answers.waiting: hands waiting on a phone, scored in turn as the server will score them."""

from __future__ import annotations

from tichu_scorer import answers
from tichu_scorer.answers import MatchFacts

NANKING = MatchFacts("nanking", ("Ann", "Bob", "Cy", "Dee"), 500, None, 3, (300, 100), False)


def test_waiting_hands_move_the_totals_and_end_the_match_as_the_server_would():
    state = answers.waiting(NANKING, [
        {"out_order": [1, 3], "calls": {}},  # B's double victory: 300 : 300
        None,  # queued without a body: takes its number, counts nothing
        {"out_order": [0, 2]},  # A's double victory: 500 : 300, the target reached
        {"out_order": [9]},  # refused: never counted
    ])
    assert [h and h["status"] for h in state["hands"]] == [200, None, 200, 422]
    assert state["facts"]["totals"] == (500, 300) and state["facts"]["finished"]
    assert state["facts"]["hand_count"] == 6
    assert state["shuffler_name"] == "Ann"  # first out of the latest hand scored
    assert state["words"]["ends"].startswith("With these hands the match is over")
    # the preview of the next hand after them says the match is over ([E1])
    after = MatchFacts.from_dict(state["facts"])
    answer, status = answers.preview(after, {"out_order": [0, 1], "card_points": [50, None]})
    assert status == 422 and answer["errors"][0]["rule"] == "E1"


def test_threechu_passes_the_shuffle_to_the_left_with_each_waiting_hand():
    facts = MatchFacts("threechu", ("Tom", "Uma", "Vic", "Dummy"), None, 9, 0, (0, 0, 0, 0), False)
    state = answers.waiting(facts, [{"out_order": [3, 1], "card_points": [50, None]}] * 2)
    assert state["shuffler_name"] == "Vic" and state["facts"]["hand_count"] == 2
    assert "%(name)s" in state["words"]["shuffles"]


def test_no_waiting_hand_changes_nothing():
    state = answers.waiting(NANKING, [])
    assert state["facts"] == NANKING.as_dict() and state["shuffler"] is None


STORED = {"running": [[200, 0], [300, 100]],  # the server's chart.json: two hands stored
          "hands": [[{"0": "tichu"}, [0, 2]], [{}, [1, 0]]]}


def test_the_chart_goes_on_from_the_stored_hands_with_the_waiting_ones():
    state = answers.waiting(NANKING, [{"out_order": [1, 3], "calls": {"1": "tichu"}},
                                      {"out_order": [9]}], STORED)  # the refused one: not drawn
    chart = state["chart"]
    assert [label for *_, label, _corner in chart["markers"]] == [
        "hand 1: Ann: Tichu made", "hand 3: Bob: Tichu made"]
    assert [i for _x, i in chart["x_labels"]] == [0, 1, 2, 3]  # three hands drawn
    ys = {v: y for y, v in chart["y_labels"]}
    team_b = chart["paths"][1][1]
    assert state["facts"]["totals"][1] == 400 and ys[400] is not None
    assert team_b.startswith("M") and chart["target_y"] is not None  # to 500: on the chart
    assert answers.waiting(NANKING, [{"out_order": [1, 3]}])["chart"] is None  # no inputs


def test_the_charts_words_come_in_the_readers_language():
    import json
    from pathlib import Path
    locales = str(Path(answers.__file__).parent / "translations")
    request = {"op": "waiting", "lang": "de", "facts": NANKING.as_list(), "chart": STORED,
               "bodies": [{"out_order": [1, 3], "calls": {"1": "tichu"}}]}
    state = json.loads(answers.phone(json.dumps(request), locales, None))["ok"]
    label = state["chart"]["markers"][-1][3]
    assert "Bob" in label and label != "hand 3: Bob: Tichu made"
    assert state["words"]["chart_title"] != "Score progression"
