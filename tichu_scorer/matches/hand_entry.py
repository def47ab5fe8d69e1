"""Hand scoring glue: form or JSON data -> the game's `read` -> the pure match state ->
the hand's row (`stored_values`); a hand previewed before saving, and a hand added to a held
match exactly once, with the conflicts of a form opened before another phone saved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy.exc import IntegrityError

from .. import scoring, statistics
from ..core import answers
from ..core.answers import Preview
from ..extensions import db
from ..models import Hand, Match
from ..scoring import Layout, Problem
from ..scoring.rows import extras_of as extras_of  # also the import's and corrections'
from ..scoring.rows import stored_values
from ..scoring.state import MatchState
from ..tables import phones
from . import at_once, closing, prebuilt
from .ending import ends_earlier, settle, state_of
from .writes import Conflict, Stale, commit_as_left, log, position


def stored_state(match: Match) -> MatchState:
    """The match's state as its stored columns leave it, without its hands
    (`MatchState.after`): the server scores the next hand against it, and the match page
    hands it to the phone serialised (`MatchState.as_list`) for scoring offline."""
    return MatchState.after(match.settings, match.hand_count or 0, match.totals or (),
                            match.finished, match.victory or ())


def next_shuffler(match: Match, ahead: int = 0) -> int | None:
    """Threechu: who shuffles (and plays the dummy) in the next hand, or `ahead` hands after
    it ([T3.1]), as the phone's core works it out too (`MatchState.next_seating`)."""
    state = stored_state(match)
    if ahead and state.next_seating is not None:
        return match.game.dealer(state.played + 1 + ahead, None)
    return state.next_seating


# [T3.1]: Threechu's seating follows the shuffler, who changes every hand. A phone without
# signal keeps the forms of the hands after the next too (the match page names them), and
# opens the one for the hand it shows (live.js): a hand entered while up to five others wait
# on the phone shows its own seating, never the seating of the copy's hand (an evening
# without signal may well hold more: docs/OFFLINE_CORE.md).
AHEAD = 5


def numbers_ahead(match: Match) -> range:
    """The hands after the next whose new-hand forms a phone keeps (`?number=`): where the
    seating follows the shuffler, the next `AHEAD`, within a fixed length ([T3.5]); none
    once the match is over."""
    first = (match.hand_count or 0) + 2
    if not match.game.records_shuffler or match.finished:
        return range(first, first)
    last = first + AHEAD if match.hand_limit is None else min(first + AHEAD,
                                                               match.hand_limit + 1)
    return range(first, max(first, last))


def ahead_of(match: Match, asked: str | None) -> int:
    """How many hands after the next one the new-hand form is asked for (`?number=`, a
    number of `numbers_ahead`, in ASCII digits); 0, the next hand, for any other."""
    ahead = numbers_ahead(match)
    number = int(asked) if asked and asked.isascii() and asked.isdigit() and len(asked) < 7 else 0
    return number - ahead.start + 1 if number in ahead else 0


def layout_for(match: Match, shuffler: int | None = None) -> Layout | None:
    """The scoring layout of a match with its names; for Threechu, of the hand that
    `shuffler` shuffles (by default the next hand); None in a game that scores no seat's
    points (the game's `layout`)."""
    layout = match.game.layout(shuffler if shuffler is not None
                                        else next_shuffler(match))
    return layout.named(match.names) if layout is not None else None


def score(match: Match, data: Mapping[str, Any], editing: Hand | None = None,
          correction: bool = False) -> tuple[Preview | None, list[Problem], dict[str, Any]]:
    """Score the next hand of `match` (or a new version of `editing`) from `data` without
    storing it: the preview, every problem, and the row's fields. A `correction` (an edit
    by a player, not an import's check) must not end the match before its last hand."""
    if editing is None:  # the phone scores a new hand with the same call (core/answers.py)
        return answers.score_next(stored_state(match), data)
    shuffler = editing.shuffler
    settings = match.settings
    hand_input, problems = settings.game.read(data, match.names, shuffler, settings.house)
    if problems or hand_input is None:
        return None, problems, {}
    # what the hand scores (the totals before it do not change that)
    played = MatchState.after(settings, match.hand_count or 0, match.totals or ()).with_hands(
        (hand_input,)).hands[-1]
    row = stored_values(played, settings.game)
    state = state_of(match, replacing=(editing, played.hand))
    if correction and (ends := ends_earlier(match, state)) is not None:
        return None, [ends], {}  # the live preview says so too, before the Save
    return Preview(list(played.scores), list(state.totals), played.sweep, state.winner,
                   state.over, list(state.victory)), [], row


def derive(match: Match, data: Mapping[str, Any],
           editing: Hand | None = None) -> scoring.Derived | None:
    """What follows from the hand entered so far ([H7], [P1], [P2]), problems or not; None
    for a ranked game."""
    shuffler = editing.shuffler if editing is not None else next_shuffler(match)
    settings = match.settings
    game = settings.game
    hand_input, _problems = game.read(data, match.names, shuffler, settings.house)
    return game.derive(hand_input, shuffler) if hand_input is not None else None



class Added(NamedTuple):
    """What `add_hand` did: the hand stored (None on a problem), every problem, and the
    hand's place among the hands in play as the match page shows it."""

    hand: Hand | None
    problems: list[Problem]
    position: int = 0


def add_hand(match: Match, data: Mapping[str, Any], number: int,
             client_id: str | None = None, entry: int | None = None,
             extras: Mapping[str, Any] | None = None,
             client_hand: Any = prebuilt.NOT_READ) -> Added:
    """Score and store one hand, log it, and update the match; nothing is stored on a
    problem. `match` must be held (`lock_match`). The form names what it was opened on: the
    hand number it showed (`number`, the hand's place) and the entry number the hand was to
    get (`entry`, one past the highest the match ever had). When another phone saved a hand
    meanwhile, `Stale` is raised and nothing is stored. The entry number is what a delete
    cannot undo: with a hand added and another deleted since, the place is the same again,
    the entry is not. (A form without `entry`, queued on a phone before forms carried it, is
    checked by its place alone.) A `client_id` seen before returns the hand already stored
    (exactly once); `closing.Closed` when the table's tournament round is closed ([TN5]).
    The caller learns the hand's place from the result; the match stays as stored.
    `client_hand`: that hand (or None), read already with the lock
    (`writes.lock_match_for_client`)."""
    if client_hand is prebuilt.NOT_READ and client_id:
        client_hand = prebuilt.hand_of_client(client_id)
    if client_id and (known := client_hand) is not None:
        if known.match_id != match.id:
            raise Conflict()
        hand = db.session.get_one(Hand, known.id)
        return Added(hand, [], position(match, hand))
    closing.check(match)  # [TN5]: a table of a closed round takes no hand
    current = (match.hand_count or 0) + 1
    if number != current:
        raise _stale(match, number, entry, current, next_entry(match))
    preview, problems, row = score(match, data)
    if problems or preview is None:
        return Added(None, problems)
    # the bombs and the note (`extras_of`), stored with the hand and never scored
    values = {"match_id": match.id, "client_id": client_id or None, **row,
              **extras_of(extras)}
    hand = Hand(**values)  # what was stored, as the caller reads it (not in the session)
    try:
        if at_once.usable():
            _store_at_once(match, hand, values, preview, entry, current)
        else:
            # the insert finds the entry number itself: checked after it, with no round
            # trip more; a mismatch rolls the insert back
            hand.id, hand.number = prebuilt.insert_hand(match.id, values)
            _check_entry(match, hand, entry, current)
            _settle(match, preview)
            statistics.record_hand(match, hand)
            prebuilt.store_match(match)
            log(match, hand, "added", "", None, hand.recorded(), shown_as=match.hand_count)
        commit_as_left()  # the match as stored: nothing to expire
    except IntegrityError as exc:  # only without the lock (a bug): refuse, never double
        db.session.rollback()
        raise Conflict() from exc
    except Exception:
        db.session.rollback()
        raise
    return Added(hand, [], current)


def _store_at_once(match: Match, hand: Hand, values: Mapping[str, Any], preview: Preview,
                   entry: int | None, current: int) -> None:
    """PostgreSQL: `add_hand`'s writes in one statement (`at_once`), its checks read from
    the statement's answer."""
    _settle(match, preview)
    counts = statistics.hand_counts(match, hand)
    event = {"position": match.hand_count, "action": "added", "summary": "", "before": None,
             "after": hand.recorded(), "phone": phones.name()}
    derived = prebuilt.derived(match)
    written = at_once.add(match, values, event, derived, counts)
    hand.id, hand.number = written.hand_id, written.number
    prebuilt.left_as_stored(match, derived, written.stamp)
    _check_entry(match, hand, entry, current)
    if written.tallied != len(counts):
        statistics.not_added(match, counts)


def _settle(match: Match, preview: Preview) -> None:
    """The match's result after the new hand, from its preview: the stored totals plus the
    hand (none in a ranked game)."""
    settle(match, preview.totals, (match.hand_count or 0) + 1, preview.winner,
           preview.finished, victory=preview.victory)


def _check_entry(match: Match, hand: Hand, entry: int | None, current: int) -> None:
    """The entry number the hand got is the one the form was opened for, or no hand in play
    was entered since; else `Stale`, the hand's writes rolled back."""
    if entry is not None and hand.number != entry:
        # hands were entered since the form was opened: a conflict if one is in play
        # (hands entered and deleted since leave nothing this one could double)
        if saved := _saved_since(match, entry, hand.number):
            db.session.rollback()
            raise Stale(saved, current, hand.number)


def _saved_since(match: Match, entry: int, now: int) -> list[tuple[int, Hand]]:
    """The hands in play entered from entry number `entry` on, before `now`, with their
    places."""
    return [(i, h) for i, h in enumerate(match.hands, start=1) if entry <= h.number < now]


def _stale(match: Match, number: int, entry: int | None, current: int,
           now: int) -> Stale:
    """The conflict of a form opened for hand `number` (entry `entry`) when the next hand
    is `current` (entry `now`): the hands in play saved since, with their places; for a
    form without an entry number, or when the hands in play grew by a restore, those from
    its place on."""
    saved = _saved_since(match, entry, now) if entry is not None else []
    if not saved and 0 < number < current:
        saved = list(enumerate(match.hands, start=1))[number - 1:]
    return Stale(saved, current, now)


def next_entry(match: Match) -> int:
    """The entry number the match's next hand gets: one past the highest it ever had
    (deleted hands keep theirs, so it never goes down)."""
    return prebuilt.next_entry(match.id)
