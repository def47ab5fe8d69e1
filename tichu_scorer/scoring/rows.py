"""A hand as its row stores it: what was recorded and what it scored (`stored_values`),
read back as the match state's input (`stored_hand`), and what a row keeps beside it and
never scores (`extras_of`). Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game.house import RULE_BOOK, HouseRules
from .calls import CustomCall, read_call
from .games import Game
from .hand import HandInput
from .state import PlayedHand


def stored_hand(out_order: Sequence[int], calls: Mapping[str, str],
                card_points: Sequence[int | None], wish_offender: int | None,
                shuffler: int | None, rules: HouseRules = RULE_BOOK) -> HandInput:
    """A hand as stored and exported (docs/API.md's shapes: calls keyed by the seat as a
    string, the card points as counted, none in Grand Seigneur) read back as the state's
    input. The inverse of `stored_values`. Each call word is read by `read_call`; a word
    these rules do not define is one of the match's own calls ([R9]), worth what the
    rules it is scored by say (`tally_hand`).

    >>> stored_hand([1, 0, 2, 3], {"0": "tichu"}, [30, 70], None, None).calls
    {0: <Call.TICHU: 'tichu'>}
    """
    points = (card_points[0], card_points[1]) if card_points else (None, None)
    read = {int(seat): read_call(call, rules) or CustomCall(call, 0)
            for seat, call in calls.items()}
    return HandInput(tuple(out_order), read, points, wish_offender, shuffler)


def stored_values(played: PlayedHand, game: Game) -> dict[str, Any]:
    """What is stored of a hand: what was recorded and what it scored (a points game's card
    points, team and seat scores; Grand Seigneur's places), as `stored_hand` reads it back.

    >>> from tichu_scorer.game.variants import NANKING
    >>> from tichu_scorer.scoring.calls import Call
    >>> from tichu_scorer.scoring.state import MatchState, Settings
    >>> setup = Settings(NANKING, tuple("ABCD"))
    >>> state = MatchState.of(setup, [HandInput((1, 0, 3), {2: Call.TICHU}, (None, 35))])
    >>> stored_values(state.hands[0], setup.game)["team_scores"]
    [-35, 35]
    """
    hand, result = played.hand, played.result
    values: dict[str, Any] = {
        "out_order": list(played.order),
        "calls": {str(seat): call.value for seat, call in sorted(hand.calls.items())},
        "card_points_entered": [], "card_points": [], "team_scores": [], "sweep": False,
        "wish_offender": hand.wish_offender, "shuffler": played.shuffler,
        "player_scores": None}
    if result is None:  # [GS1]: each player's place
        values["player_scores"] = {str(seat): place for place, seat in enumerate(
            played.order, start=1)}
        return values
    values |= {"card_points_entered": list(hand.card_points),
               "card_points": list(result.card_points),
               "team_scores": list(result.team_scores), "sweep": result.sweep}
    if not game.variant.teams:  # a total per seat (Threechu): each seat's score ([T3.4])
        values["player_scores"] = {str(seat): score
                                   for seat, score in enumerate(played.seat_scores())}
    return values


def extras_of(extras: Mapping[str, Any] | None) -> dict[str, Any]:
    """A hand's bombs per seat (None when none was counted) and note (None when empty), as
    its row stores them: never scored.

    >>> extras_of({"bombs": [0, 2], "note": "  a  long\tnight "})
    {'bombs': [0, 2], 'note': 'a long night'}
    """
    bombs = list((extras or {}).get("bombs") or [])
    note = " ".join(str((extras or {}).get("note") or "").split())
    return {"bombs": bombs if any(bombs) else None, "note": note or None}
