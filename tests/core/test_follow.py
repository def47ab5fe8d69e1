"""The hand in play's rules (`core.follow`, RULES.md §11): every refusal with its rule id,
the phases, the end of the hand in each variant, undo, the same tap twice, what fills the
hand form, and the panel and sentences drawn from it (`core.follow_panel`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tichu_scorer.core import answers, follow, follow_api, follow_panel
from tichu_scorer.core.follow import Event, Table, in_play, refusal
from tichu_scorer.game.house import read_house_rules
from tichu_scorer.game.variants import NANKING, SEIGNEUR, THREECHU, TIENTSIN
from tichu_scorer.scoring.games import game_of

FOUR = Table.of(game_of(NANKING), 4)
SIX = Table.of(game_of(TIENTSIN), 6)
THREE = Table.of(game_of(THREECHU), 4, shuffler=1)  # seat 1 shuffles and plays the dummy (3)
SEVEN = Table.of(game_of(SEIGNEUR), 7)
NAMES = ("Ann", "Bob", "Cy", "Dee")


def events(*taps: str) -> list[Event]:
    """Events from "kind", "kind:seat" or "wish::rank" taps."""
    out = []
    for tap in taps:
        kind, _, rest = tap.partition(":")
        seat, _, rank = rest.partition(":")
        out.append(Event(kind, int(seat) if seat else None, rank or None))
    return out


def refused(table: Table, before: tuple[str, ...], tap: str) -> str | None:
    problem = refusal(table, in_play(table, events(*before)), events(tap)[0])
    return problem.rule if problem is not None else None


START = ("start",)
PLAYING = ("start", "dealt", "passed")


@pytest.mark.parametrize("table, before, tap, rule", [
    # [L1] Grand Tichu only with the first cards; the Threechu shuffler (and dummy) none
    (FOUR, START, "grand:0", None),
    (FOUR, ("start", "dealt"), "grand:0", "L1"),
    (FOUR, ("start", "passed"), "grand:0", "L1"),
    (FOUR, ("start", "bomb:2"), "grand:0", "L1"),  # a card played: the deal is behind
    (THREE, START, "grand:1", "L1"),
    (THREE, START, "grand:3", "L1"),
    (THREE, START, "grand:0", None),
    (SIX, START, "grand:5", None),
    (FOUR, ("start", "dealt"), "dealt", "L1"),
    (FOUR, PLAYING, "passed", "L1"),
    # [L2] Tichu until the player's first card, once per player
    (FOUR, START, "tichu:1", None),
    (FOUR, ("start", "dealt"), "tichu:1", None),
    (FOUR, PLAYING, "tichu:1", None),
    (FOUR, ("start", "grand:1"), "tichu:1", "L2"),
    (FOUR, ("start", "tichu:1"), "tichu:1", "L2"),
    (FOUR, (*PLAYING, "bomb:1"), "tichu:1", "L2"),
    (FOUR, (*PLAYING, "out:1"), "tichu:1", "L2"),
    (FOUR, (*PLAYING, "out:0"), "tichu:1", None),
    (THREE, PLAYING, "tichu:3", None),  # the shuffler calls Tichu for the dummy
    (SEVEN, START, "tichu:4", "L2"),  # [GS1]: no calls
    (SEVEN, START, "grand:4", "L2"),
    # [L3] one wish; fulfilled while open; one offender, never the dummy
    (FOUR, PLAYING, "wish::8", None),
    (FOUR, (*PLAYING, "wish::8"), "wish::9", "L3"),
    (FOUR, PLAYING, "fulfilled", "L3"),
    (FOUR, (*PLAYING, "wish::8", "fulfilled"), "fulfilled", "L3"),
    (FOUR, PLAYING, "missed:1", "L3"),
    (FOUR, (*PLAYING, "wish::8"), "missed:1", None),
    (FOUR, (*PLAYING, "wish::8", "missed:1"), "missed:2", "L3"),
    (THREE, (*PLAYING, "wish::8"), "missed:3", "L3"),
    (SEVEN, (*PLAYING, "wish::8"), "missed:3", "L3"),
    (FOUR, (*PLAYING, "wish::8", "out:0", "out:1", "out:2"), "missed:3", None),
    # [L4] one at a time, the hand ends under [H8]
    (FOUR, (*PLAYING, "out:0"), "out:0", "L4"),
    (FOUR, (*PLAYING, "out:0", "out:1", "out:2"), "out:3", "L4"),
    (FOUR, (*PLAYING, "out:0", "out:2"), "out:1", "L4"),  # double victory
    (FOUR, (*PLAYING, "out:0", "out:1", "out:2"), "bomb:3", "L4"),
    (SIX, (*PLAYING, "out:0", "out:2"), "out:4", None),
    (SIX, (*PLAYING, "out:0", "out:2", "out:4"), "out:1", "L4"),  # triple victory
    (SEVEN, (*PLAYING, *(f"out:{s}" for s in range(6))), "out:6", "L4"),
    # [L5] bombs per player, at most four, none by a player out
    (FOUR, (*PLAYING, "bomb:2", "bomb:2", "bomb:2"), "bomb:2", None),
    (FOUR, (*PLAYING, "bomb:2", "bomb:2", "bomb:2", "bomb:2"), "bomb:2", "L5"),
    (FOUR, (*PLAYING, "out:2"), "bomb:2", "L5"),
    # [L6] follow first; undo what stands
    ((), (), "undo", "L6"),
    (FOUR, (), "tichu:1", "L6"),
    (FOUR, START, "start", "L6"),
    (FOUR, ("start", "undo"), "start", None),
])
def test_each_event_is_taken_or_refused_with_its_rule(table, before, tap, rule):
    table = table or FOUR
    assert refused(table, before, tap) == rule


@pytest.mark.parametrize("house, tap, before, rule", [
    ({"grand_tichu": False}, "grand:0", START, "R2"),
    ({"wish_penalty": False}, "missed:0", (*PLAYING, "wish::8"), "R8"),
])
def test_the_house_rules_refuse_with_their_ids(house, tap, before, rule):
    table = Table.of(game_of(NANKING), 4, house=read_house_rules(house))
    assert refused(table, before, tap) == rule


def test_the_phases_of_a_hand():
    assert in_play(FOUR, events("start")).phase == follow.DEAL
    assert in_play(FOUR, events("start", "dealt")).phase == follow.PASS
    assert in_play(FOUR, events(*PLAYING)).phase == follow.PLAY
    assert in_play(FOUR, events("start", "wish::2")).phase == follow.PLAY
    assert in_play(FOUR, events(*PLAYING, "out:1", "out:3")).phase == follow.OVER
    assert in_play(SIX, events("start")).phase == follow.DEAL and SIX.first_cards == 6


def test_a_call_keeps_the_phase_it_was_made_in():
    state = in_play(FOUR, events("start", "grand:0", "tichu:1", "dealt", "tichu:2", "passed",
                                 "tichu:3"))
    assert dict(state.calls) == {0: "grand", 1: "tichu", 2: "tichu", 3: "tichu"}
    assert dict(state.called_in) == {0: "deal", 1: "deal", 2: "pass", 3: "play"}


def test_undo_takes_back_the_latest_event_that_stands():
    state = in_play(FOUR, events(*PLAYING, "bomb:1", "bomb:2", "undo", "undo", "bomb:3"))
    assert state.bombs == (0, 0, 0, 1)
    assert not in_play(FOUR, events("start", "undo")).followed
    assert in_play(FOUR, events("start", "undo", "undo")).events == ()


def test_the_wish_opens_and_closes():
    state = in_play(FOUR, events(*PLAYING, "wish::Q"))
    assert (state.wish, state.wish_open) == ("Q", True)
    state = in_play(FOUR, events(*PLAYING, "wish::Q", "fulfilled"))
    assert (state.wish, state.wish_open) == ("Q", False)


def test_the_form_is_filled_from_the_events():
    state = in_play(FOUR, events("start", "grand:1", "dealt", "passed", "tichu:0", "wish::8",
                                 "bomb:3", "missed:2", "out:0", "out:3", "out:1"))
    assert follow.recorded(FOUR, state) == {
        "out_order": [0, 3, 1], "calls": {"1": "grand", "0": "tichu"},
        "card_points": [None, None], "wish_penalty": {"offender": 2}, "bombs": [0, 0, 0, 1]}
    assert follow.recorded(SEVEN, in_play(SEVEN, events(*PLAYING, "out:4"))) == {
        "out_order": [4]}


@pytest.mark.parametrize("data, field", [
    ({"kind": "shout"}, "kind"),
    ({"kind": "tichu"}, "seat"),
    ({"kind": "tichu", "seat": "4"}, "seat"),
    ({"kind": "tichu", "seat": True}, "seat"),
    ({"kind": "tichu", "seat": -1}, "seat"),
    ({"kind": "wish", "rank": "1"}, "rank"),
    ({"kind": "wish", "rank": "PH"}, "rank"),
    ({"kind": "wish"}, "rank"),
    ({"kind": "wish", "rank": True}, "rank"),
    ({"kind": "start", "rank": True}, "rank"),  # the API's schema: text or a number
    ({"kind": "out", "seat": 1, "rank": [8]}, "rank"),
    ({"kind": ["tichu"]}, "kind"),
])
def test_an_event_that_is_not_one_names_its_field(data, field):
    with pytest.raises(follow.BadEvent) as caught:
        Event.read(data, 4)
    assert caught.value.field == field


def test_the_same_tap_of_two_phones_is_taken_once():
    stored = events("start", "bomb:1")
    state = in_play(FOUR, stored)
    assert follow.repeated(stored, state, events("bomb:1")[0], seen=1)
    assert not follow.repeated(stored, state, events("bomb:1")[0], seen=2)
    assert not follow.repeated(stored, state, events("bomb:2")[0], seen=1)
    assert follow.repeated(stored, state, events("start")[0], seen=None)


def test_the_log_says_when_a_call_was_made():
    said = follow_panel.told(FOUR, NAMES, events("start", "grand:0", "tichu:2", "dealt",
                                                 "tichu:3", "passed", "tichu:1", "wish::8",
                                                 "fulfilled", "out:1", "undo"))
    assert said[1] == "Ann called Grand Tichu with the first 8 cards."
    assert said[2] == "Cy called Tichu before all cards were dealt."
    assert said[4] == "Dee called Tichu after the deal, before the pass."
    assert said[6] == "Bob called Tichu after the pass, before his first card."
    assert said[8] == "The wish for a 8 was fulfilled."
    assert said[9] == "Bob went out, number 1."
    assert said[10] == "The latest event was taken back."


def test_the_panel_offers_only_what_the_rules_allow():
    state = in_play(FOUR, events("start", "dealt", "tichu:1"))
    drawn = str(follow_panel.panel(FOUR, state, NAMES, True, 3))
    assert 'value="grand:0"' not in drawn  # [L1]
    assert 'value="tichu:1"' not in drawn and 'value="tichu:0"' in drawn  # [L2]
    assert 'value="wish::8"' not in drawn and "Hand 3 in play" in drawn  # the pass first
    playing = str(follow_panel.panel(FOUR, in_play(FOUR, events(*PLAYING)), NAMES, True, 3))
    assert 'value="wish::8"' in playing and 'value="passed"' not in playing
    viewer = str(follow_panel.panel(FOUR, state, NAMES, False, 3))
    assert "<button" not in viewer and "Tichu" in viewer
    assert str(follow_panel.panel(FOUR, in_play(FOUR, []), NAMES, False, 1)) == ""


def test_the_phones_core_draws_the_panel_with_its_waiting_taps():
    facts = follow_panel.facts(FOUR, NAMES, events("start", "dealt"), 2)
    taps = [{"event": "tichu:1"}, {"event": "grand:2"}, {"event": "wish::J"}, {"event": "x"}]
    drawn = follow_panel.waiting(facts, taps)
    assert drawn["refused"] == 2  # the Grand Tichu after the deal [L1], the unknown tap
    served = follow_panel.panel(FOUR, in_play(FOUR, events("start", "dealt", "tichu:1",
                                                           "wish::J")), NAMES, True, 2)
    assert drawn["panel"] == str(served)
    asked = answers.phone('{"op": "follow", "facts": %s, "taps": [{"event": "bomb:0"}]}' % (
        __import__("json").dumps(facts)), "tichu_scorer/translations", None)
    assert '"refused": 0' in asked


TAPS = st.sampled_from([*(f"{k}:{s}" for k in follow.SEATED for s in range(6)),
                        "dealt", "passed", "wish::8", "fulfilled", "undo", "start"])


@given(st.lists(TAPS, max_size=40), st.sampled_from([FOUR, SIX, THREE, SEVEN]))
def test_taps_the_rules_take_always_leave_a_hand_that_adds_up(taps, table):
    taken: list[Event] = []
    for tap in taps:
        try:
            kind, _, rest = tap.partition(":")
            seat, _, rank = rest.partition(":")
            event = Event.read({"kind": kind, "seat": seat, "rank": rank}, table.seats)
        except follow.BadEvent:
            continue
        if refusal(table, in_play(table, taken), event) is None:
            taken.append(event)
    state = in_play(table, taken)
    assert len(set(state.out)) == len(state.out) <= table.seats - 1
    assert all(0 <= n <= 4 for n in state.bombs)
    assert len(state.calls) == len({s for s, _ in state.calls})
    assert not (state.calls and not table.calls)
    if table.teams is None or not state.over:
        return
    hand, problems = game_of(NANKING if table.seats == 4 and table.dummy is None else
                             TIENTSIN if table.seats == 6 else THREECHU).read(
        follow.recorded(table, state) | {"card_points": [50, None]},
        ("A", "B", "C", "D", "E", "F")[:table.seats], 1 if table.dummy is not None else None)
    # a hand followed to its end fills a form that scores, but for the card points' own
    assert {p.rule for p in problems} <= {"P1", "P2", "T6.6"}, problems


def test_a_threechu_hand_asked_without_its_shuffler_is_seat_0s():
    """POST /api/v1/follow/check's table (`follow_api.table_of`): the shuffler defaults to
    seat 0, who (with the dummy, seat 3) calls no Grand Tichu [T3.3]."""
    body = {"variant": "threechu", "events": [{"kind": "start"}],
            "event": {"kind": "grand", "seat": 0}}
    assert follow_api.table_of(body) == follow_api.table_of(body | {"shuffler": 0})
    answer, status = follow_api.check(body)
    assert status == 422 and [(e["field"], e["rule"]) for e in answer["errors"]] == [
        ("event", "L1")], answer
    assert follow_api.check(body | {"event": {"kind": "grand", "seat": 1}})[1] == 200
