"""The hand in play (RULES.md §11, `[L1]`–`[L6]`): what a table taps while it plays a hand
(calls, the deal, the pass, the Mah Jong's wish, bombs, who is out) and what follows from
it. One pure function folds a hand's events into its state (`in_play`), one checks a new
event against that state and refuses it with a rule id (`refusal`); the server, the JSON
API and the phone's core all call these two. The app never sees the cards: an event is the
table's word, refused only where the rules forbid it.

>>> from tichu_scorer.game.variants import NANKING
>>> from tichu_scorer.scoring.games import game_of
>>> table = Table.of(game_of(NANKING), 4)
>>> hand = in_play(table, [Event("start"), Event("grand", 1), Event("dealt")])
>>> hand.phase, dict(hand.calls)
('pass', {1: 'grand'})
>>> refusal(table, hand, Event("grand", 2)).rule
'L1'
>>> after = in_play(table, [*hand.events, Event("out", 0), Event("out", 2)])
>>> after.over, after.out
(True, (0, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..game.house import RULE_BOOK, HouseRules, read_house_rules
from ..game.i18n import _
from ..game.variants import MOST_BOMBS
from ..scoring.games import Game
from ..scoring.hand import Problem

# What a table taps. `start` opens the following of a hand, `undo` takes back the latest
# event that stands (a `start` too: the hand is no longer followed).
SEATED = ("grand", "tichu", "bomb", "out", "missed")  # each names a seat
KINDS = ("start", "dealt", "passed", "wish", "fulfilled", "undo", *SEATED)
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # [S1]
# The phases of a hand: the first cards out (Grand Tichu), all cards dealt (the pass),
# play, over ([H8]).
DEAL, PASS, PLAY, OVER = "deal", "pass", "play", "over"
PLAYS = ("wish", "fulfilled", "bomb", "out")  # cards on the table: the pass is behind


class BadEvent(ValueError):
    """An event that is not a question (no such kind, seat or rank): the field it concerns
    and a sentence. Not a rule: a 400."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class Event:
    """One tap: what, by or for which seat, the wished rank; as stored, who tapped it
    (`phone`, the phone's name) and when (`at`, ISO text)."""

    kind: str
    seat: int | None = None
    rank: str | None = None
    phone: str | None = None
    at: str | None = None

    @classmethod
    def read(cls, data: Mapping[str, Any], seats: int) -> Event:
        """An event from a request's fields (JSON or a form's text); `BadEvent` naming the
        field when it is not one.

        >>> Event.read({"kind": "tichu", "seat": "2"}, 4)
        Event(kind='tichu', seat=2, rank=None, phone=None, at=None)
        >>> Event.read({"kind": "wish", "rank": "q"}, 4).rank
        'Q'
        """
        kind = data.get("kind")
        if kind not in KINDS:
            raise BadEvent("kind", _("Unknown event %(given)s: use one of %(known)s.") % {
                "given": repr(str(kind))[:30], "known": ", ".join(KINDS)})
        seat = _seat(data.get("seat"), seats, required=kind in SEATED)
        raw = data.get("rank")  # text or a number whatever the kind (the API's FollowEvent)
        if isinstance(raw, bool) or not isinstance(raw, str | int | None):
            raise BadEvent("rank", _("A rank is text or a whole number, as Q or 8 (S1)."))
        rank = None
        if kind == "wish":
            rank = str(raw).strip().upper() if raw is not None else ""
            rank = "10" if rank == "T" else rank
            if rank not in RANKS:
                raise BadEvent("rank", _("The wish is one rank from 2 to A (S1)."))
        return cls(str(kind), seat, rank)

    def same(self, other: Event) -> bool:
        """The same tap (a second phone tapping it at the same moment)."""
        return (self.kind, self.seat, self.rank) == (other.kind, other.seat, other.rank)

    def as_dict(self) -> dict[str, Any]:
        """The event in the API's shape (only the fields it has)."""
        found = {"kind": self.kind, "seat": self.seat, "rank": self.rank, "phone": self.phone,
                 "at": self.at}
        return {k: v for k, v in found.items() if v is not None}


def _seat(raw: object, seats: int, required: bool) -> int | None:
    if raw is None or raw == "":
        if required:
            raise BadEvent("seat", _("This event needs a seat."))
        return None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 3:
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < seats:
        raise BadEvent("seat", _("Seat %(seat)s does not exist: seats are 0–%(last)s.") % {
            "seat": repr(raw)[:12], "last": seats - 1})
    return raw


@dataclass(frozen=True)
class Table:
    """What the rules of a followed hand need of its match: the seats, the teams of this
    hand (None in a game without partners), who calls no Grand Tichu ([T3.3]), how many
    cards come before the Grand Tichu ([H2], [T6.2]), how many of one team out first end
    the hand ([H8], [T6.6]), and the house rules ([R2], [R8])."""

    seats: int
    teams: tuple[int, ...] | None = None
    no_grand: frozenset[int] = frozenset()
    dummy: int | None = None
    first_cards: int = 8
    sweep: int = 2
    calls: bool = True  # Grand Seigneur: no calls, no points ([GS1])
    house: HouseRules = RULE_BOOK

    @classmethod
    def of(cls, game: Game, seats: int, shuffler: int | None = None,
           house: HouseRules = RULE_BOOK) -> Table:
        """The table of a match's next hand: its game, its seats, the hand's shuffler
        (Threechu) and its house rules."""
        layout = game.layout(shuffler) if game.variant.scored else None
        if layout is None:
            return cls(seats, calls=False, house=house)
        return cls(seats, layout.teams, layout.no_grand_seats, layout.dummy,
                   6 if layout.team_size == 3 else 8, layout.team_size, house=house)


    def as_dict(self) -> dict[str, Any]:
        """The table as the page hands it to the phone's core (`from_dict` reads it), what
        `from_dict` takes by default left out: it is on every scorer's match page."""
        whole = {"seats": self.seats, "teams": None if self.teams is None else list(self.teams),
                 "no_grand": sorted(self.no_grand), "dummy": self.dummy,
                 "first_cards": self.first_cards, "sweep": self.sweep, "calls": self.calls,
                 "house": None if self.house == RULE_BOOK else self.house.as_dict()}
        return {k: v for k, v in whole.items() if k == "seats" or v != _DEFAULTS.get(k)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Table:
        teams = data.get("teams")
        return cls(int(data["seats"]), None if teams is None else tuple(teams),
                   frozenset(data.get("no_grand", ())), data.get("dummy"),
                   int(data.get("first_cards", 8)), int(data.get("sweep", 2)),
                   bool(data.get("calls", True)), read_house_rules(data.get("house") or None))


_DEFAULTS: dict[str, object] = {"teams": None, "no_grand": [], "dummy": None,
                                 "first_cards": 8, "sweep": 2, "calls": True, "house": None}


@dataclass(frozen=True)
class InPlay:
    """A followed hand as its events leave it: the phase, each call and the phase it was
    made in, the wish (open or fulfilled) and who played the Mah Jong, the offender of a
    missed wish, the bombs per seat, who is out in order, the seats that played a card,
    and the events that stand (undone ones taken out)."""

    events: tuple[Event, ...] = ()
    phase: str = DEAL
    calls: tuple[tuple[int, str], ...] = ()
    called_in: tuple[tuple[int, str], ...] = ()
    wish: str | None = None
    wish_open: bool = False
    wished_by: int | None = None
    offender: int | None = None
    bombs: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    played: frozenset[int] = field(default_factory=frozenset)

    @property
    def followed(self) -> bool:
        return bool(self.events)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def call_of(self, seat: int) -> str | None:
        return dict(self.calls).get(seat)


def in_play(table: Table, events: Iterable[Event]) -> InPlay:
    """The hand as its events leave it, undo taken into account. The events are taken as
    checked when they were stored (`refusal`); nothing is refused here."""
    standing: list[Event] = []
    for event in events:
        if event.kind == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(event)
    state = InPlay(bombs=(0,) * table.seats)
    for event in standing:
        state = _apply(table, state, event)
    return state


def _apply(table: Table, state: InPlay, event: Event) -> InPlay:
    kind, seat = event.kind, event.seat
    changes: dict[str, Any] = {"events": (*state.events, event)}
    phase = state.phase
    if kind in PLAYS and phase in (DEAL, PASS):
        phase = PLAY
    if kind == "dealt":
        phase = PASS
    elif kind == "passed":
        phase = PLAY
    elif kind in ("grand", "tichu") and seat is not None:
        changes["calls"] = (*state.calls, (seat, kind))
        changes["called_in"] = (*state.called_in, (seat, phase))
    elif kind == "wish":
        changes |= {"wish": event.rank, "wish_open": True, "wished_by": seat}
    elif kind == "fulfilled":
        changes["wish_open"] = False
    elif kind == "missed":
        changes["offender"] = seat
    elif kind == "bomb" and seat is not None:
        changes["bombs"] = tuple(n + (s == seat) for s, n in enumerate(state.bombs))
    elif kind == "out" and seat is not None:
        changes["out"] = (*state.out, seat)
        if _ended(table, changes["out"]):
            phase = OVER
    if seat is not None and kind in ("wish", "bomb", "out"):
        changes["played"] = state.played | {seat}
    return InPlay(**(state.__dict__ | changes | {"phase": phase}))


def _ended(table: Table, out: tuple[int, ...]) -> bool:
    """[H8]: one player left, or one team's players all out before any opponent ([P2],
    [T6.6])."""
    if len(out) >= table.seats - 1:
        return True
    if table.teams is None or len(out) < table.sweep:
        return False
    return len({table.teams[s] for s in out[:table.sweep]}) == 1


def repeated(events: list[Event], state: InPlay, event: Event, seen: int | None) -> bool:
    """The same tap as one stored since the phone saw `seen` of the hand's `events` (two
    phones tapping it at once: it is stored once), or a "Follow this hand" of a hand
    followed already (`state`).

    >>> stored = [Event("start"), Event("bomb", 1)]
    >>> repeated(stored, InPlay(tuple(stored)), Event("bomb", 1), seen=1)
    True
    >>> repeated(stored, InPlay(tuple(stored)), Event("bomb", 1), seen=2)
    False
    """
    if event.kind == "start" and state.followed:
        return True
    return seen is not None and 0 <= seen and any(e.same(event) for e in events[seen:])


def refusal(table: Table, state: InPlay, event: Event) -> Problem | None:
    """Why the rules refuse this event now, with the rule's id; None when it may be taken."""
    found = _refused(table, state, event)
    if found is None:
        return None
    rule, message = found
    return Problem("seat" if event.seat is not None else "kind", rule, message)


def _refused(table: Table, state: InPlay, event: Event) -> tuple[str, str] | None:
    kind, seat = event.kind, event.seat
    if kind == "undo":
        return None if state.events else ("L6", _("There is nothing to undo."))
    if kind == "start":
        return ("L6", _("This hand is already followed.")) if state.followed else None
    if not state.followed:
        return "L6", _("Tap “Follow this hand” first.")
    if state.over and kind != "missed":
        return "L4", _("The hand is over: the out-order is complete.")
    if seat is not None and seat in state.out and kind != "missed":
        return ("L4" if kind == "out" else "L2" if kind in ("grand", "tichu") else "L5",
                _("That player is already out."))
    if kind in ("grand", "tichu"):
        return _call_refused(table, state, event)
    return _play_refused(table, state, event)


def _call_refused(table: Table, state: InPlay, event: Event) -> tuple[str, str] | None:
    kind, seat = event.kind, event.seat
    if not table.calls:
        return "L2", _("This game has no calls (GS1).")
    if seat is not None and state.call_of(seat) is not None:
        return "L2", _("One call per player per hand: that player has called already.")
    if kind == "grand":
        if not table.house.grand_tichu:
            return "R2", _("This match plays without Grand Tichu.")
        if state.phase != DEAL:
            return "L1", _("Grand Tichu only before all cards are dealt (%(n)s cards in "
                           "hand).") % {"n": table.first_cards}
        if seat in table.no_grand:
            return "L1", _("The shuffler calls no Grand Tichu, neither for himself nor for "
                           "the dummy (T3.3).")
        return None
    if seat in state.played:
        return "L2", _("Tichu only before the player’s first card, and a card of that player "
                       "was recorded.")
    return None


def _play_refused(table: Table, state: InPlay, event: Event) -> tuple[str, str] | None:
    kind, seat = event.kind, event.seat
    if kind == "dealt" and state.phase != DEAL:
        return "L1", _("All cards were dealt already.")
    if kind == "passed" and state.phase == PLAY:
        return "L1", _("The pass is behind: play has begun.")
    if kind == "wish" and state.wish is not None:
        return "L3", _("There is one Mah Jong: its wish was made already.")
    if kind == "fulfilled" and not state.wish_open:
        return "L3", _("No wish is open.")
    if kind == "missed":
        return _missed_refused(table, state, seat)
    if kind == "bomb" and seat is not None and state.bombs[seat] >= MOST_BOMBS:
        return "L5", _("At most %(n)s bombs per player in a hand (B1).") % {"n": MOST_BOMBS}
    return None


def _missed_refused(table: Table, state: InPlay, seat: int | None) -> tuple[str, str] | None:
    if not table.calls:
        return "L3", _("This game has no wish penalty (GS1).")
    if not table.house.wish_penalty:
        return "R8", _("This match charges no wish penalty.")
    if state.wish is None:
        return "L3", _("No wish was made in this hand.")
    if state.offender is not None:
        return "L3", _("The wish was missed already by another player.")
    if seat is not None and seat == table.dummy:
        return "L3", _("The dummy never owes the wish (T3.3).")
    return None


def recorded(table: Table, state: InPlay) -> dict[str, Any]:
    """What the hand form opens filled with ([L6]), in docs/API.md's hand shape: the
    out-order, the calls, the bombs and the wish penalty. The card points are left."""
    found: dict[str, Any] = {"out_order": list(state.out)}
    if table.calls:
        found["calls"] = {str(s): c for s, c in state.calls}
        found["card_points"] = [None, None]
        found["wish_penalty"] = (None if state.offender is None
                                 else {"offender": state.offender})
    if any(state.bombs):
        found["bombs"] = list(state.bombs)
    return found


def as_dict(table: Table, state: InPlay) -> dict[str, Any]:
    """The hand in play as the JSON answers give it."""
    return {"followed": state.followed, "phase": state.phase, "over": state.over,
            "calls": {str(s): c for s, c in state.calls},
            "called_in": {str(s): p for s, p in state.called_in},
            "wish": state.wish, "wish_open": state.wish_open, "wished_by": state.wished_by,
            "offender": state.offender, "bombs": list(state.bombs), "out": list(state.out),
            "events": [e.as_dict() for e in state.events],
            "form": recorded(table, state)}
