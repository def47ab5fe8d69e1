"""Races of a followed hand (RULES.md §11) between phones, with real gunicorn workers and
threads (the harness of tests/test_races.py): taps of two phones at once, each round
started together (a barrier, no sleeps). After every round the invariant is checked: each
hand's events take the places 1, 2, 3 … once, every stored event is one the rules took at
its place, the same tap of two phones is stored once, a client id once, and the match's
revision rose once per event stored (live pages and the kept page follow it)."""

from __future__ import annotations

import urllib.parse

from sqlalchemy import text

from benchmarks.harness import Session
from tests import test_races
from tests.test_races import ROUNDS, hand_fields
from tichu_scorer.core import follow
from tichu_scorer.core.follow import Event
from tichu_scorer.game.variants import NANKING
from tichu_scorer.scoring.games import game_of

FOUR = follow.Table.of(game_of(NANKING), 4)
server, table = test_races.server, test_races.table  # the same fixtures, for this module


def tap(t, phone, event: str, **fields: str) -> int:
    body = urllib.parse.urlencode({"csrf_token": t.tokens[id(phone)], "event": event}
                                  | fields).encode()
    status, _data, _headers = phone.request("POST", t.url + "/follow", body,
                                            "application/x-www-form-urlencoded")
    return status


def events_of(t) -> tuple[int, dict[int, list[tuple]]]:
    """The match's revision, and each hand's stored events in their places."""
    with t.engine.connect() as conn:
        revision = conn.execute(text("SELECT revision FROM match WHERE id = :m"),
                                {"m": t.match_id}).scalar_one()
        rows = conn.execute(text("SELECT hand, seq, kind, seat, rank, client_id FROM "
                                 "follow_event WHERE match_id = :m ORDER BY hand, seq"),
                            {"m": t.match_id}).all()
    hands: dict[int, list[tuple]] = {}
    for row in rows:
        hands.setdefault(row.hand, []).append(row)
    return revision, hands


def check(t) -> tuple[int, dict[int, list[tuple]]]:
    """The invariant of every hand's events."""
    revision, hands = events_of(t)
    ids = [row.client_id for rows in hands.values() for row in rows if row.client_id]
    assert len(ids) == len(set(ids)), "a client id is stored twice"
    for rows in hands.values():
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1)), "a place twice"
        taken: list[Event] = []
        for row in rows:  # each event was one the rules took at its place
            event = Event(row.kind, row.seat, row.rank)
            assert follow.refusal(FOUR, follow.in_play(FOUR, taken), event) is None, row
            taken.append(event)
    return revision, hands


def test_two_phones_tapping_at_once_never_double_an_event(table):
    t = table(2)
    a, b = t.phones
    twin = Session(t.base)  # phone a again, on a second connection (its outbox replaying)
    twin.cookie, t.tokens[id(twin)] = a.cookie, t.tokens[id(a)]
    first, _ = check(t)
    stored = 0
    for rnd in range(ROUNDS):
        hand = rnd + 1
        # both tap "Follow this hand": followed once
        t.at_once([lambda p=p: tap(t, p, "start") for p in (a, b)])
        # the same bomb, both having seen one event: one bomb
        t.at_once([lambda p=p, k=k, r=rnd: tap(t, p, "bomb:2", seen="1", client_id=f"b{r}{k}")
                   for k, p in enumerate((a, b))])
        # different calls at once: both taken, one after the other
        t.at_once([lambda p=p, s=s: tap(t, p, f"tichu:{s}", seen="2")
                   for s, p in ((0, a), (1, b))])
        # one phone's tap sent twice at once (a replay from its outbox): once
        t.at_once([lambda p=p, r=rnd: tap(t, p, "out:3", client_id=f"o{r}") for p in (a, twin)])
        # both undo the out they saw: one undo
        t.at_once([lambda p=p: tap(t, p, "undo", seen="5") for p in (a, b)])
        revision, hands = check(t)
        kinds = [row.kind for row in hands[hand]]
        assert kinds == ["start", "bomb", "tichu", "tichu", "out", "undo"], kinds
        stored += len(kinds)
        assert revision == first + stored + rnd, "the revision missed an event"
        # the hand is saved: the next round follows the next hand
        status, _ = t.post(a, "/hands/new", hand_fields(50, number=str(hand)))
        assert status == 303
    twin.close()
