"""A match's settings changed after it began: the target, the players' names and the house
rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext

from ..extensions import db
from ..game.house import BY_KEY, RULE_BOOK, HouseRules
from ..models import HandEvent, Match, Player
from ..scoring import Call, Problem, read_call
from ..tables import phones
from . import closing
from .ending import after_the_end, recompute
from .roster import player_named


class HandsBreakRules(Exception):
    """House rules that hands already recorded break ([R2]: a Grand Tichu called; [R8]: a
    wish penalty charged): nothing was changed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def change_settings(match: Match, target: int | None, names: Sequence[str],
                    describe: Callable[[Mapping[str, Any], Mapping[str, Any]], str],
                    house: HouseRules | None = None, lead_by: int | None = None) -> bool:
    """A new target (the result follows from the hands again, [E1]), the players' names in
    this match (a seat whose name changes takes the table's player of that name, or a new
    one; other matches keep their players) and, when given, the house rules and [R6]'s
    lead ([R1]: the hands are scored again under them). The change goes into the match's
    log, with `describe(before, after)` as its stored words. `match` must be held with
    its table (`lock_table_and_match`: a rename or merge of a player holds the table).
    False when nothing changed (nothing is written); `closing.Closed` for a table of a
    closed tournament round ([TN5])."""
    try:
        closing.check(match)
        before = settings_of(match)
        was_after_the_end = after_the_end(match)
        if target is not None and match.game.has_target:
            match.target = target
        if house is not None and match.game.has_target:
            _check_hands(match, house)
            match.house_rules = None if house == RULE_BOOK else house.as_dict()
            match.lead_by = lead_by
        seats = [s for s in match.seats if s.player is not None]
        for seat, name in zip(seats, names, strict=True):
            if seat.player is None or Player.key_of(" ".join(name.split())) != seat.player.name_key:
                seat.player = player_named(match.group_id, name)
        after = settings_of(match)
        if after == before:
            db.session.rollback()
            return False
        recompute(match, was_after_the_end)
        db.session.add(HandEvent(match_id=match.id, hand_id=None, position=match.hand_count,
                                 action="settings", summary=describe(before, after),
                                 before=before, after=after, phone=phones.name()))
        db.session.commit()
        return True
    except Exception:
        db.session.rollback()
        raise


def settings_of(match: Match) -> dict[str, Any]:
    """What the settings page changes, as the log keeps it: the target, the names and (when
    any) the house rules with [R6]'s lead."""
    found: dict[str, Any] = {"target": match.target, "names": list(match.player_names)}
    if match.house_rules or match.lead_by:
        found |= {"house": match.house_rules or {}, "lead_by": match.lead_by}
    return found


def _check_hands(match: Match, house: HouseRules) -> None:
    """[R2], [R8]: house rules the hands in play already break are refused, naming the
    first such hand."""
    no_grand, no_wish = BY_KEY["grand_tichu"], BY_KEY["wish_penalty"]
    for number, hand in enumerate(match.hands, start=1):
        words = list((hand.calls or {}).values())
        if not house.grand_tichu and any(read_call(c, house) is Call.GRAND for c in words):
            raise HandsBreakRules(Problem(no_grand.box, no_grand.rule, gettext(
                "Hand %(n)s has a Grand Tichu call: correct or delete it before playing "
                "without Grand Tichu. Nothing was changed.", n=number)))
        own = [c for c in words if read_call(c, house) is None]
        if own:
            raise HandsBreakRules(Problem("custom_calls", "R9", gettext(
                "Hand %(n)s has the call “%(call)s”: correct or delete it before playing "
                "without that call. Nothing was changed.", n=number, call=own[0])))
        if not house.wish_penalty and hand.wish_offender is not None:
            raise HandsBreakRules(Problem(no_wish.box, no_wish.rule, gettext(
                "Hand %(n)s charged a wish penalty: correct or delete it before playing "
                "without wish penalties. Nothing was changed.", n=number)))
