"""The glue between requests and rows: form data -> pure scoring -> rows; history queries."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import Text, and_, bindparam, case, cast, func, inspect, or_, union_all
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import lazyload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.state import InstanceState

from . import answers, scoring, tallies
from .answers import MatchFacts, Preview
from .extensions import db
from .game import variants
from .game.i18n import _
from .models import NAME_MAX, Group, Hand, HandEvent, Match, MatchSeat, Player, utcnow
from .scoring import HandInput, Layout, Problem, Side, Variant, seigneur
from .scoring.state import MatchState, PlayedHand, next_hand, stored_hand, stored_values


class Conflict(Exception):
    """Another phone changed what this request was based on; nothing was saved.

    `hand` is the hand as the other phone left it (None when it is gone), `current` the
    version or hand number the request should have named."""

    def __init__(self, hand: Hand | None = None, current: int | None = None) -> None:
        super().__init__("conflict")
        self.hand = hand
        self.current = current


class Stale(Conflict):
    """A new-hand form opened for hand N, but another phone saved a hand meanwhile (or the
    match has fewer hands now): `saved` are the hands in play saved since, with their
    places, `current` the number the next hand now gets and `entry` its entry number."""

    def __init__(self, saved: list[tuple[int, Hand]], current: int, entry: int) -> None:
        super().__init__(saved[0][1] if saved else None, current)
        self.saved = saved
        self.entry = entry


def begin_write() -> None:
    """Start the write transaction of this request: end any read transaction, then begin
    one that holds SQLite's write lock from its first statement (BEGIN IMMEDIATE), so that
    what it reads cannot change before it commits. On PostgreSQL `lock_match` locks the
    match's row instead. Every change to the database goes through here."""
    db.session.rollback()
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.connection(execution_options={"sqlite_immediate": True})


def reading() -> None:
    """This request only reads, and reads one statement at a time: on PostgreSQL its
    statements run outside a transaction, each with its own snapshot, which is all READ
    COMMITTED gives a transaction's statements anyway; the BEGIN and ROLLBACK round trips
    around them are saved. A reader that needs its statements to agree checks that itself
    (`hand_lines` reads the match's revision with the hands). Call it before the request's
    first statement; a write afterwards (`begin_write`) ends it and begins a transaction.
    SQLite, in the process, has no round trip to save and keeps its read transaction."""
    if db.session.get_bind().dialect.name == "postgresql" and not db.session().in_transaction():
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


@contextmanager
def writing() -> Iterator[None]:
    """One write transaction (`begin_write`), committed at the end, rolled back on any
    error."""
    begin_write()
    try:
        yield
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


# The statements of every request, built once: building one (its options, its cache key)
# costs about as much CPU as the round trip to the database.
_HELD = (db.select(Match).where(Match.key == bindparam("key")).with_for_update(of=Match)
         .options(lazyload(Match.seats)).execution_options(populate_existing=True))
_BY_KEY = db.select(Match).where(Match.key == bindparam("key")).options(lazyload(Match.seats))
_SEATS = (db.select(MatchSeat).where(MatchSeat.match_id == bindparam("match"))
          .order_by(MatchSeat.seat))
_SEATS_HELD = _SEATS.execution_options(populate_existing=True)


def lock_match(key: str) -> Match | None:
    """Begin a write holding this match (SQLite: the database's write lock; PostgreSQL:
    the match's row, SELECT … FOR UPDATE) and read it afresh. Every change to a match runs
    between this and its commit, so no two changes of one match interleave.

    The seats (the players' names) are read by a statement of their own once the match is
    held. On PostgreSQL a statement that waited for the lock sees the locked row as the
    change it waited for left it, but every other row as it was when the statement began:
    seats read with it would miss a rename committed meanwhile, and this change would
    count and log its hand under the old name."""
    begin_write()
    match = db.session.execute(_HELD, {"key": key}).scalar_one_or_none()
    if match is not None:
        set_committed_value(match, "seats", list(
            db.session.execute(_SEATS_HELD, {"match": match.id}).scalars()))
    return match


def next_shuffler(match: Match) -> int | None:
    """Threechu: who shuffles (and plays the dummy) in the next hand ([T3.1])."""
    return match.game.shuffler((match.hand_count or 0) + 1)


def layout_for(match: Match, shuffler: int | None = None) -> Layout:
    """The scoring layout of a match with its names; for Threechu, of the hand that
    `shuffler` shuffles (by default the next hand)."""
    return match.game.layout(match.names, (match.hand_count or 0) + 1, shuffler)


def match_by_key(key: str) -> Match | None:
    """The match whose URL key this is (unguessable; ids never leave the app), with its
    table; its seats are read when first asked for (a page answered 304 never asks)."""
    if len(key) > 24:
        return None
    return db.session.execute(_BY_KEY, {"key": key}).scalar_one_or_none()


def load_seats(match: Match) -> None:
    """Read the seats of a match read by `match_by_key`, with their players, when it turns
    out to need them (a page not answered 304): one prebuilt statement, at half the CPU of
    the ORM's lazy load."""
    if "seats" in inspect(match).unloaded:
        set_committed_value(match, "seats", list(
            db.session.execute(_SEATS, {"match": match.id}).scalars()))


def create_group(name: str) -> Group:
    """A new table; the caller's device becomes its scorer (`access.join`)."""
    with writing():
        group = Group(name=" ".join(name.split())[:NAME_MAX] or "Tichu")
        db.session.add(group)
    return group


def core(statement: Any, values: Mapping[str, Any]) -> Any:
    """Run a prebuilt Core statement (no ORM entities) on the session's connection, in its
    transaction. The session's own `execute` would add its ORM handling (and a flush of
    pending changes first), about as much CPU again as the statement; callers run it where
    nothing is pending or where what is pending does not bear on it."""
    return db.session.connection().execute(statement, values)


def position(match: Match, hand: Hand) -> int:
    """The hand's number as the match page shows it: its place among the hands in play."""
    return next((i for i, h in enumerate(match.hands, start=1) if h is hand), 0)


def player_named(group_id: int, name: str) -> Player:
    """The player with this name (any case, any spacing), created when new."""
    clean = " ".join(name.split())
    key = Player.key(clean)
    found = db.select(Player).filter_by(group_id=group_id, name_key=key)
    player = db.session.execute(found).scalar_one_or_none()
    if player is None:
        try:  # another table may bring the same new name at the same moment (PostgreSQL)
            with db.session.begin_nested():
                player = Player(group_id=group_id, name=clean, name_key=key)
                db.session.add(player)
        except IntegrityError:
            player = db.session.execute(found).scalar_one()
    return player


def known_names(groups: Sequence[Group], limit: int = 200) -> list[str]:
    """Names of the players of these tables, most recent first, for the new-match form
    (a table's names are seen only by its members)."""
    if not groups:
        return []
    rows = db.session.execute(
        db.select(Player.name).where(Player.group_id.in_([g.id for g in groups]))
        .order_by(Player.created_at.desc(), Player.id.desc()).limit(limit)).scalars()
    return list(rows)


def seat_rows(game: Variant, players: Sequence[Player]) -> list[MatchSeat]:
    """The seats of a new match: the players in seats 0, 1, … with their fixed team (team
    games alternate, partners opposite, [H1], [T6.1]); Threechu adds the dummy's seat."""
    rows = [MatchSeat(seat=seat, team=game.team_of(seat), player=player)
            for seat, player in enumerate(players)]
    if game.dummy_seat is not None:
        rows.append(MatchSeat(seat=game.dummy_seat, team=None, player=None))
    return rows


def create_match(group: Group, names: Sequence[str], target: int | None,
                 game: Variant = variants.DEFAULT, hand_limit: int | None = None,
                 rematch_of: str | None = None) -> Match:
    """A new match of table `group` with these players in seats 0, 1, … A rematch holds the
    match it follows (key `rematch_of`) meanwhile: Conflict when it was deleted."""
    with writing():
        held = lock_match(rematch_of) if rematch_of else None
        if rematch_of and held is None:
            raise Conflict()
        match = Match(group_id=group.id, variant=game.key, target=target,
                      hand_limit=hand_limit, rematch_of_id=held.id if held else None,
                      stamp=next_stamp(group.id))
        match.seats = seat_rows(game, [player_named(group.id, name) for name in names])
        match.totals = [0] * match.sides
        match.stats = tallies.counted(match)  # a match without hands still counts as played
        db.session.add(match)
    return match


def rematch(match: Match) -> Match:
    return create_match(match.group, match.player_names, match.target, match.game,
                        match.hand_limit, rematch_of=match.key)


def facts(match: Match) -> MatchFacts:
    """What scoring the match's next hand needs of it (`answers.MatchFacts`): the server
    scores from these, and the match page hands them to the phone for scoring offline."""
    return MatchFacts(match.variant, match.names, match.target, match.hand_limit,
                      match.hand_count or 0, tuple(match.totals or ()), match.finished)


def score(match: Match, data: Mapping[str, Any], editing: Hand | None = None,
          correction: bool = False) -> tuple[Preview | None, list[Problem], dict[str, Any]]:
    """Score the next hand of `match` (or a new version of `editing`) from `data` without
    storing it: the preview, every problem, and the row's fields. A `correction` (an edit
    by a player, not an import's check) must not end the match before its last hand."""
    if editing is None:  # the phone scores a new hand with the same call (answers.py)
        return answers.score_next(facts(match), data)
    shuffler = editing.shuffler
    settings = match.settings
    hand_input, problems = settings.game.read(data, match.names, shuffler)
    if problems or hand_input is None:
        return None, problems, {}
    # what the hand scores (the totals before it do not change that)
    totals = tuple(match.totals or [0] * match.sides)
    played, _end = next_hand(settings, totals, match.hand_count or 0, hand_input)
    row = stored_values(played, match.game)
    state = state_of(match, replacing=(editing, played.hand))
    if correction and (ends := _ends_earlier(match, state)) is not None:
        return None, [ends], {}  # the live preview says so too, before the Save
    return Preview(list(played.scores), list(state.totals), played.sweep, state.winner,
                   state.over), [], row


def _ends_earlier(match: Match, state: MatchState) -> Problem | None:
    """An edit giving this `state` that would end the match before its last hand in play
    ([E1], [T3.5]), or leave more hands after its end than the record already has (see
    `recompute`)."""
    if state.hands_after_the_end > state_of(match).hands_after_the_end:
        return _end_problem(match, state)
    return None


def derive(match: Match, data: Mapping[str, Any],
           editing: Hand | None = None) -> scoring.Derived | None:
    """What follows from the hand entered so far ([H7], [P1], [P2]), problems or not; None
    for a ranked game."""
    shuffler = editing.shuffler if editing is not None else next_shuffler(match)
    game = match.settings.game
    hand_input, _problems = game.read(data, match.names, shuffler)
    return game.derive(hand_input, shuffler) if hand_input is not None else None


def state_of(match: Match, replacing: tuple[Hand, HandInput] | None = None) -> MatchState:
    """The match as its hands in play leave it; with `replacing`, one of them recorded
    differently (an edit's preview)."""
    hands = match.hands
    if replacing is None:
        return MatchState.of(match.settings, [h.input for h in hands])
    editing, instead = replacing
    return MatchState.of(match.settings, [instead if h is editing else h.input for h in hands])


class Added(NamedTuple):
    """What `add_hand` did: the hand stored (None on a problem), every problem, and the
    hand's place among the hands in play as the match page shows it."""

    hand: Hand | None
    problems: list[Problem]
    position: int = 0


def add_hand(match: Match, data: Mapping[str, Any], number: int,
             client_id: str | None = None, entry: int | None = None) -> Added:
    """Score and store one hand, log it, and update the match; nothing is stored on a
    problem. `match` must be held (`lock_match`). The form names what it was opened on: the
    hand number it showed (`number`, the hand's place) and the entry number the hand was to
    get (`entry`, one past the highest the match ever had). When another phone saved a hand
    meanwhile, `Stale` is raised and nothing is stored. The entry number is what a delete
    cannot undo: with a hand added and another deleted since, the place is the same again,
    the entry is not. (A form without `entry`, queued on a phone before forms carried it, is
    checked by its place alone.) A `client_id` seen before returns the hand already stored
    (exactly once). The commit expires what was read: the caller learns the hand's place
    from the result, not by reading the match again."""
    if client_id:
        known = db.session.execute(db.select(Hand).filter_by(client_id=client_id)
                                   ).scalar_one_or_none()
        if known is not None:
            if known.match_id != match.id:
                raise Conflict()
            return Added(known, [], position(match, known))
    current = (match.hand_count or 0) + 1
    if number != current:
        raise _stale(match, number, entry, current, next_entry(match))
    preview, problems, row = score(match, data)
    if problems or preview is None:
        return Added(None, problems)
    values = {"match_id": match.id, "client_id": client_id or None, **row}
    hand = Hand(**values)  # what was stored, as the caller reads it (not in the session)
    try:
        # the insert finds the entry number itself: checked after it, with no round trip
        # more; a mismatch rolls the insert back
        hand.id, hand.number = core(_INSERT_HAND, values | {"numbered": match.id}).one()
        if entry is not None and hand.number != entry:
            # hands were entered since the form was opened: a conflict if one is in play
            # (hands entered and deleted since leave nothing this one could double)
            if saved := _saved_since(match, entry, hand.number):
                db.session.rollback()
                raise Stale(saved, current, hand.number)
        # from the preview: the stored totals plus this hand (none in a ranked game)
        _settle(match, preview.totals, (match.hand_count or 0) + 1, preview.winner,
                preview.finished)
        tallies.added(match, hand)
        _store_match(match)
        log(match, hand, "added", "", None, hand.recorded(), shown_as=match.hand_count)
        db.session.commit()
    except IntegrityError as exc:  # only without the lock (a bug): refuse, never double
        db.session.rollback()
        raise Conflict() from exc
    except Exception:
        db.session.rollback()
        raise
    return Added(hand, [], current)


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
    return int(core(_NEXT_ENTRY, {"numbered": match.id}).scalar_one())


# A new hand is stored with three prebuilt statements rather than through the ORM's unit of
# work, which costs about twice their CPU for the same three rows (the save is the busiest
# write): the hand, the match's derived columns, the log line. The hand's entry number is
# found by the insert itself, one past the highest the match ever had (numbers are never
# reused; the match is held, so no other insert can take it meanwhile).
_NEXT_ENTRY = (db.select(func.coalesce(func.max(Hand.number), 0) + 1)
               .where(Hand.match_id == bindparam("numbered")))
_NEXT_NUMBER = _NEXT_ENTRY.scalar_subquery()
_INSERT_HAND = (Hand.__table__.insert().values(number=_NEXT_NUMBER)
                .returning(Hand.__table__.c.id, Hand.__table__.c.number))
_INSERT_EVENT = HandEvent.__table__.insert()
DERIVED = ("hand_count", "revision", "totals", "winner_team", "finished_at", "stats")
_STAMPED = Match.__table__.alias("stamped")
_TABLE = Group.__table__


def next_stamp(group_id: Any) -> Any:
    """The stamp of a new match of this table or of a change of one (the table's id, or a
    parameter naming it), found by the write itself: one past the highest of the table's
    matches and of those it deleted (`delete_match`). On PostgreSQL two writers at a table
    may take the same one; the statistics' checksum tells (`tallies`)."""
    held = union_all(
        db.select(func.max(_STAMPED.c.stamp).label("stamp"))
        .where(_STAMPED.c.group_id == group_id),
        db.select(_TABLE.c.stamp).where(_TABLE.c.id == group_id)).subquery()
    return db.select(func.coalesce(func.max(held.c.stamp), 0) + 1).scalar_subquery()


_UPDATE_MATCH = (Match.__table__.update().where(Match.__table__.c.id == bindparam("match_id"))
                 .values(stamp=next_stamp(bindparam("stamped")))
                 .returning(Match.__table__.c.stamp))


def _store_match(match: Match) -> None:
    """Write the match's derived columns as changed in memory (`_settle`, `changed`,
    `tallies.added`), and leave the ORM nothing of them to write again."""
    values = {name: getattr(match, name) for name in DERIVED}
    stamp = core(_UPDATE_MATCH, values | {"match_id": match.id,
                                          "stamped": match.group_id}).scalar_one()
    for name, value in (values | {"stamp": stamp}).items():
        set_committed_value(match, name, value)
    # Nothing else changed: the commit has nothing to flush, so spare it the unit of work's
    # walk over the match and its relationships (half a millisecond).
    if not db.session.is_modified(match):
        state: InstanceState[Match] = inspect(match)
        state._commit_all(state.dict, db.session().identity_map)  # noqa: SLF001


def log(match: Match, hand: Hand, action: str, summary: str,
        before: dict[str, Any] | None, after: dict[str, Any] | None,
        shown_as: int | None = None) -> None:
    """Append to the match's log (never changed afterwards)."""
    shown = shown_as if shown_as is not None else position(match, hand)
    core(_INSERT_EVENT, {
        "match_id": match.id, "hand_id": hand.id, "position": shown, "action": action,
        "summary": summary, "before": before, "after": after})


def changed(match: Match) -> None:
    """Name the match's new state: its revision rises in the transaction of every change
    (kept match pages, statistics and phones waiting for news follow it)."""
    match.revision = (match.revision or 0) + 1
    if inspect(match).persistent:  # (a match being imported is stamped as it is stored)
        match.stamp = next_stamp(match.group_id)


class AfterTheEnd(Exception):
    """A correction would leave hands in play after the hand that ended the match: `problem`
    says which, and nothing is changed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def recompute(match: Match, was_after_the_end: int | None = None) -> None:
    """Totals, hand count and result from the hands ([E1], [E2], [T3.5]). For a correction
    (an edit, a delete, a restore, new settings), `was_after_the_end` is how many hands in
    play came after the end of the match before it (`after_the_end`, 0 in a sound record):
    one that would leave more raises `AfterTheEnd`. No hand is played after the end, so
    such a record cannot be, and the result beside its totals would contradict them. (A
    record left so by an older version may still be mended hand by hand; an import keeps
    what it brings.)"""
    match.hand_count = len(match.hands)
    changed(match)
    state = state_of(match)
    if was_after_the_end is not None and state.hands_after_the_end > was_after_the_end:
        raise AfterTheEnd(_end_problem(match, state))
    _settle(match, list(state.totals), match.hand_count, state.winner, state.over, counted=True)
    tallies.refresh(match, state)


def after_the_end(match: Match) -> int:
    """How many hands in play come after the end of the match (0 in a sound record)."""
    return state_of(match).hands_after_the_end


def overrun(match: Match) -> Problem | None:
    """What a match as read from a file breaks when hands in play come after the hand that
    ended it ([E1], or [T3.5] past its number of hands); None in a sound record. Named by
    the hands' own numbers, as the file has them."""
    hands = match.hands
    state = state_of(match)
    extra = state.hands_after_the_end
    if not extra:
        return None
    if state.end_rule == "T3.5":
        return Problem("hands", "T3.5", _(
            "the match lasts {n} hands, but {m} hands are in play.").format(
            n=match.hand_limit, m=len(hands)))
    return Problem("hands", "E1", _(
        "the match was won with hand {n} ({side}), but the hands go on to hand {last}: a "
        "match ends with the hand that decides it. Remove the later hands, or give the match "
        "a higher target.").format(n=hands[len(hands) - extra - 1].number,
                                    side=" & ".join(state.winner_names),
                                    last=hands[-1].number))


def _end_problem(match: Match, state: MatchState) -> Problem:
    """What a record with hands after the end of the match breaks, in the reader's words."""
    played = len(state.hands)
    if state.end_rule == "T3.5":
        return Problem("match", "T3.5", _(
            "This match lasts {n} hands; with this change it would have {m}. Nothing was "
            "changed.").format(n=match.hand_limit, m=played))
    return Problem("match", "E1", _(
        "With this change the match would have been won after hand {n} ({side}), but it "
        "goes on to hand {played}. If the match really ended there, delete the later hands "
        "first; to correct several hands (two entered in the wrong order), delete the later "
        "ones, correct, then restore them from the log. Nothing was changed.").format(
        side=" & ".join(state.winner_names), n=state.winner_after, played=played))


def _settle(match: Match, totals: list[int], hands: int, winner: int | None, over: bool,
            counted: bool = False) -> None:
    """Store the derived totals, hand count and result of a match (one place for both the
    quick path of a new hand and the full recomputation)."""
    if not counted:
        changed(match)
    match.totals = totals
    match.hand_count = hands
    match.winner_team = winner
    if not over:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = utcnow()


@dataclass(frozen=True)
class Total:
    """One total on the match page: its side (a team, a player or the dummy), the points
    and whether it won."""

    side: Side
    total: int
    won: bool

    @property
    def css(self) -> str:
        return self.side.css


class HandLine(NamedTuple):
    """A hand in play as the match page and the exports read it: what was recorded and
    what it scored, as plain values (a long match is read as columns, not objects)."""

    number: int
    out_order: list[int]
    calls: dict[str, str]
    card_points: list[int]
    team_scores: list[int]
    player_scores: dict[str, int] | None
    wish_offender: int | None
    shuffler: int | None
    sweep: bool

    @property
    def input(self) -> HandInput:
        """The hand as the pure match state reads it."""
        return stored_hand(self.out_order, self.calls, self.card_points, self.wish_offender,
                           self.shuffler)

    @classmethod
    def of(cls, hand: Hand) -> HandLine:
        return cls(hand.number, hand.out_order, hand.calls, hand.card_points,
                   hand.team_scores, hand.player_scores, hand.wish_offender, hand.shuffler,
                   hand.sweep)


# The JSON columns of a hand, read as their text and decoded for all hands at once: one
# json.loads of the whole list costs a tenth of one call per value (a thousand for 200 hands).
_JSON_COLUMNS = (Hand.out_order, Hand.calls, Hand.card_points, Hand.team_scores,
                 Hand.player_scores)
_LINES = (db.select(Match.revision, Hand.number, Hand.wish_offender, Hand.shuffler, Hand.sweep,
                    *(cast(column, Text) for column in _JSON_COLUMNS))
          .select_from(Match)
          .outerjoin(Hand, and_(Hand.match_id == Match.id, Hand.deleted_at.is_(None)))
          .where(Match.id == bindparam("match")).order_by(Hand.number))
READ_ATTEMPTS = 5


class Gone(LookupError):
    """The match was deleted while its page was being read."""


class Moving(RuntimeError):
    """The match changed every time its hands were read (`READ_ATTEMPTS` times in a row)."""


def hand_lines(match: Match) -> list[HandLine]:
    """The hands in play of `match`, in order, as they were when `match` was read. They are
    read in one statement together with the match's revision, which every change of a match
    raises: PostgreSQL gives each statement of a read its own snapshot, so when another
    phone changed the match since its row was read, the row is read again (totals, names)
    and so are the hands. Hands loaded with the match (an export's batch) are used as
    they are."""
    if "all_hands" not in inspect(match).unloaded:
        return [HandLine.of(h) for h in match.hands]
    for _attempt in range(READ_ATTEMPTS):
        rows = core(_LINES, {"match": match.id}).all()
        if not rows:
            raise Gone(match.key)
        if rows[0][0] == match.revision:
            hands = [row for row in rows if row[1] is not None]
            values = json.loads("[" + ",".join(
                "[" + ",".join("null" if text is None else text for text in row[5:]) + "]"
                for row in hands) + "]")
            return [HandLine(row[1], out_order, calls, points, teams, players, row[2], row[3],
                             bool(row[4]))
                    for row, (out_order, calls, points, teams, players) in zip(
                        hands, values, strict=True)]
        db.session.refresh(match)
    raise Moving(match.key)


class HandRow(NamedTuple):
    position: int
    hand: HandLine
    running: tuple[int, ...]
    deltas: tuple[int, ...]
    first_out: str | None
    call_notes: list[tuple[str, str, bool]]  # (name, Tichu/Grand Tichu, made)
    ranking: tuple[str, ...] = ()
    notes: RowNotes | None = None  # the row's words, translated (`match_page`)


class RowNotes(NamedTuple):
    """What the match page says about a hand, in the reader's language: built from
    patterns translated once per page, not a few lookups per row."""

    first_out: str = ""  # "Ann out first"
    wish: str = ""  # "Wish missed by Bob"
    sweep: str = ""  # "Double victory"
    shuffled: str = ""  # Threechu: "Cy shuffled and played the dummy."
    calls: tuple[tuple[str, bool], ...] = ()  # ("Ann: Tichu ✓ made", made)
    edit: str = ""  # "Edit hand 7"


class _Words:
    """The match page's per-hand sentences, each translated once."""

    def __init__(self, match: Match) -> None:
        self.out_first = _("%(name)s out first")
        self.wish = _("Wish missed by %(name)s")
        self.sweep = _(match.game.sweep_title)
        self.shuffled = _("%(name)s shuffled and played the dummy.")
        self.call = {call.value: _(call.label) for call in scoring.Call}
        self.made, self.failed = _("✓ made"), _("✗ failed")
        self.edit = _("Edit hand %(n)s")

    def notes(self, names: tuple[str, ...], hand: HandLine, played: PlayedHand) -> RowNotes:
        first = played.first_out
        calls = tuple((f"{names[c.seat]}: {self.call[c.call.value]} "
                       f"{self.made if c.made else self.failed}", c.made) for c in played.calls)
        return RowNotes(
            self.out_first % {"name": names[first]} if first is not None else "",
            self.wish % {"name": names[hand.wish_offender]}
            if hand.wish_offender is not None else "",
            self.sweep if hand.sweep else "",
            self.shuffled % {"name": names[hand.shuffler]} if hand.shuffler is not None
            else "", calls, self.edit % {"n": played.number})


@dataclass(frozen=True)
class MatchPage:
    match: Match
    sides: list[Total]
    rows: list[HandRow]
    next_shuffler: str | None
    dummy_partner: str | None = None  # Threechu: who plays the dummy next hand
    ranking: list[Total] = field(default_factory=list)
    titles: list[tuple[str, str]] = field(default_factory=list)  # (title, name), next seating
    pushes: list[seigneur.Push] = field(default_factory=list)
    records: list[tuple[str, seigneur.PlayerRecord]] = field(default_factory=list)
    tied_at: int | None = None  # [E2]: tied at the top at or above the target, play goes on


def side_labels(match: Match) -> list[str]:
    """A short label per total: the team letters, or the players' names."""
    return [side.label for side in match.game.sides(match.names)]


def sides_of(match: Match) -> list[Total]:
    """The match's totals with who holds each (none in a ranked game)."""
    totals = match.totals or [0] * match.sides
    return [Total(side, totals[side.index] if side.index < len(totals) else 0,
                  match.winner_team == side.index)
            for side in match.game.sides(match.names)]


def match_page(match: Match) -> MatchPage:
    """Everything the match page shows, computed in one pass over the hands (which are
    read first: reading them may read the match again, see `hand_lines`)."""
    hands = hand_lines(match)
    names = match.names
    sides = sides_of(match)
    state = MatchState.of(match.settings, [h.input for h in hands])
    if match.game.ranked:
        return _seigneur_page(match, names, hands, state)
    words = _Words(match)
    rows = []
    for hand, played in zip(hands, state.hands, strict=True):
        first = played.first_out
        notes = [(names[c.seat], c.call.label, c.made) for c in played.calls]
        rows.append(HandRow(played.number, hand, played.running, played.scores,
                            names[first] if first is not None else None, notes,
                            notes=words.notes(names, hand, played)))
    shuffler = state.next_shuffler
    dealer = names[shuffler] if shuffler is not None else None
    if match.game.has_dummy:
        ranking = sorted(sides, key=lambda s: -s.total)
        return MatchPage(match, sides, rows, dealer, dummy_partner=dealer, ranking=ranking)
    tied = None if match.finished else state.tied_at
    return MatchPage(match, sides, rows, dealer, tied_at=tied)


def _seigneur_page(match: Match, names: tuple[str, ...], hands: list[HandLine],
                   state: MatchState) -> MatchPage:
    rows = [HandRow(played.number, h, (), (), names[played.first_out]
                    if played.first_out is not None else None, [],
                    tuple(names[s] for s in h.out_order))
            for h, played in zip(hands, state.hands, strict=True)]
    titles = [(title, names[seat]) for title, seat in state.titles]
    stats = [(names[r.seat], r) for r in state.records()]
    stats.sort(key=lambda x: (-x[1].great_lord, x[1].average_rank or 99))
    return MatchPage(match, [], rows, None, titles=titles, pushes=list(state.pushes),
                     records=stats)


def match_ids(groups: Sequence[Group]) -> list[int]:
    """Every match of these tables, oldest first (for exports)."""
    return list(db.session.execute(db.select(Match.id).where(
        Match.group_id.in_([g.id for g in groups])).order_by(Match.id)).scalars())


PAGE_SIZE = 20  # matches per page of a match list


@dataclass(frozen=True)
class HistoryPage:
    """One page of a match list, newest first, and the match keys that open the pages
    around it (None at either end)."""

    matches: list[Match]
    older: str | None = None  # ?older=key: the matches started before that one
    newer: str | None = None  # ?newer=key: the matches started after that one


def history_page(groups: Sequence[Group], older: str | None = None, newer: str | None = None,
                 size: int = PAGE_SIZE) -> HistoryPage:
    """A page of these tables' matches, newest first, after (`older`) or before (`newer`)
    the match with that key: keyset pagination on (start, id), so a page costs the same
    with 10,000 matches as with 10, and a match added meanwhile shifts nothing."""
    if not groups:
        return HistoryPage([])
    mine = Match.group_id.in_([g.id for g in groups])
    cursor_key = older or newer
    cursor = None
    if cursor_key and len(cursor_key) <= 24:
        cursor = db.session.execute(db.select(Match.started_at, Match.id).where(
            mine, Match.key == cursor_key)).one_or_none()
    order = (Match.started_at.desc(), Match.id.desc())
    query = db.select(Match).where(mine)
    if cursor is not None and newer and not older:
        after = or_(Match.started_at > cursor.started_at, and_(
            Match.started_at == cursor.started_at, Match.id > cursor.id))
        found = list(db.session.execute(query.where(after).order_by(
            Match.started_at, Match.id).limit(size + 1)).scalars())
        if len(found) > size:
            page = found[:size][::-1]
            return HistoryPage(page, older=page[-1].key, newer=page[0].key)
        cursor = None  # fewer than a page is newer: show the first page
    if cursor is not None:
        query = query.where(or_(Match.started_at < cursor.started_at, and_(
            Match.started_at == cursor.started_at, Match.id < cursor.id)))
    found = list(db.session.execute(query.order_by(*order).limit(size + 1)).scalars())
    page = found[:size]
    return HistoryPage(page, older=page[-1].key if len(found) > size else None,
                       newer=page[0].key if cursor is not None and page else None)


def history(groups: Sequence[Group], limit: int | None = 200) -> list[Match]:
    """The matches of these tables, newest first."""
    if not groups:
        return []
    return list(db.session.execute(
        db.select(Match).where(Match.group_id.in_([g.id for g in groups]))
        .order_by(Match.started_at.desc(), Match.id.desc()).limit(limit)).scalars())


def change_settings(match: Match, target: int | None, names: Sequence[str],
                    describe: Callable[[Mapping[str, Any], Mapping[str, Any]], str]) -> bool:
    """A new target (the result follows from the hands again, [E1]) and the players' names
    in this match: a seat whose name changes takes the table's player of that name, or a
    new one (other matches keep their players). The change goes into the match's log, with
    `describe(before, after)` as its stored words. `match` must be held (`lock_match`).
    False when nothing changed (nothing is written)."""
    try:
        before = settings_of(match)
        was_after_the_end = after_the_end(match)
        if target is not None and not match.game.ranked:
            match.target = target
        seats = [s for s in match.seats if s.player is not None]
        for seat, name in zip(seats, names, strict=True):
            if seat.player is None or Player.key(" ".join(name.split())) != seat.player.name_key:
                seat.player = player_named(match.group_id, name)
        after = settings_of(match)
        if after == before:
            db.session.rollback()
            return False
        recompute(match, was_after_the_end)
        db.session.add(HandEvent(match_id=match.id, hand_id=None, position=match.hand_count,
                                 action="settings", summary=describe(before, after),
                                 before=before, after=after))
        db.session.commit()
        return True
    except Exception:
        db.session.rollback()
        raise


def settings_of(match: Match) -> dict[str, Any]:
    """What the settings page changes, as the log keeps it: the target and the names."""
    return {"target": match.target, "names": list(match.player_names)}


_KEEP_STAMP = (Group.__table__.update().where(Group.__table__.c.id == bindparam("table"))
               .values(stamp=case((func.coalesce(Group.__table__.c.stamp, 0)
                                   > bindparam("stamp"), Group.__table__.c.stamp),
                                  else_=bindparam("stamp"))))


_UNLINK_REMATCHES = (Match.__table__.update()
                     .where(Match.__table__.c.rematch_of_id == bindparam("match"))
                     .values(rematch_of_id=None))


def delete_match(match: Match) -> None:
    """Remove a match with its hands and log (the scorer confirmed it). `match` is held.
    On SQLite its table keeps its stamp, so that the next match stored never takes it
    again: SQLite may give the next match its id too, and the statistics would take one for
    the other (there one writer at a time changes the database; on PostgreSQL, whose ids
    never repeat, the table's row is left alone, as every other change of a match does)."""
    try:
        if db.session.get_bind().dialect.name == "sqlite":  # (PostgreSQL never reuses ids)
            core(_KEEP_STAMP, {"table": match.group_id, "stamp": match.stamp or 0})
        # a rematch of it stays, as a match of its own
        core(_UNLINK_REMATCHES, {"match": match.id})
        db.session.delete(match)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
