"""Database rows: players, matches with their seats, and hands. No scoring arithmetic here.

A match has N seats (4, 6, or 5–12 for Grand Seigneur); a seat belongs to a team (or to no
team). A hand stores what the table recorded (out-order, calls, card points, wish penalty)
and the scores derived from it by `tichu_scorer.scoring`, per team and per player.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, SmallInteger, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from . import scoring
from .clock import utcnow
from .extensions import db
from .game import variants
from .game.variants import MOST_BOMBS as MOST_BOMBS  # forms, transfer take it from here
from .players.rows import NAME_MAX as NAME_MAX
from .players.rows import Player as Player
from .players.rows import PlayerMerge as PlayerMerge
from .scoring import HandInput
from .scoring.games import Game, game_of
from .scoring.rows import stored_hand
from .scoring.state import Settings
from .tables.codes import SCORE_LENGTH, WATCH_LENGTH
from .tables.codes import new_code as new_code  # `transfer.json_import` takes it from here

NOTE_MAX = 200  # characters of a hand's note
TALLY_WHO_MAX = 300  # a partnership: up to three names as a JSON list
# What a phone may send as a hand's client id (the form and the import check it alike).
CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_key() -> str:
    """An unguessable public id (96 random bits) for URLs: no sequential ids leave the app."""
    return secrets.token_urlsafe(12)


class Group(db.Model):  # type: ignore[name-defined,misc]
    """A table: the private space of a group of players. Its matches, log, exports,
    statistics and names are seen only by devices that joined it (see `access`)."""

    __tablename__ = "tichu_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(24), unique=True, default=new_key)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    # The invite code (read out or scanned) makes a device a member: it sees the table.
    invite_code: Mapped[str] = mapped_column(String(8), unique=True,
                                             default=lambda: new_code(8))
    # The scorer link's secret makes a device a scorer of every match of the table.
    scorer_key: Mapped[str] = mapped_column(String(32), unique=True,
                                            default=lambda: secrets.token_urlsafe(16))
    # The watch code shows the table's board or evening on a screen, read-only, and nothing
    # else (`tables.watching`).
    watch_code: Mapped[str] = mapped_column(String(WATCH_LENGTH), unique=True,
                                            default=lambda: new_code(WATCH_LENGTH))
    # Rotating the links bumps this: rights given by the old links end.
    generation: Mapped[int] = mapped_column(default=1)
    # The random id of the device that rotated last (`access.device`): it keeps its right
    # even when an older cookie of its own, from a request that overlapped, comes back.
    kept_device: Mapped[str | None] = mapped_column(String(24), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The highest stamp a deleted match of the table held (`Match.stamp`): stamps go on
    # from there, so that a match stored after it never takes its stamp again.
    stamp: Mapped[int | None] = mapped_column(default=None)

    def rotate(self, matches: list[Match], device: str | None = None) -> None:
        """New invite code, scorer link and watch code, and new viewer codes for its
        `matches`: devices that joined or watched through the old ones lose their rights (a
        device keeps the generation, or the code, it was let in with)."""
        self.invite_code = new_code(8)
        self.scorer_key = secrets.token_urlsafe(16)
        self.watch_code = new_code(WATCH_LENGTH)
        self.generation += 1
        self.kept_device = device
        for match in matches:
            match.code = new_code(8)
            match.scorer_key = new_code(SCORE_LENGTH)


class Match(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (
        # a page of a table's match list, newest first, read from the index alone
        Index("ix_match_listing", "group_id", "started_at", "id"),
        # a table's version for live pages (`live`), from the index alone
        Index("ix_match_revisions", "group_id", "variant", "revision", "stamp"),
        # the table's highest stamp, for the next (`prebuilt.next_stamp`)
        Index("ix_match_stamps", "group_id", "stamp"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(24), unique=True, default=new_key)
    group_id: Mapped[int] = mapped_column(ForeignKey("tichu_group.id", ondelete="CASCADE"),
                                          index=True)
    variant: Mapped[str] = mapped_column(String(16), default=variants.DEFAULT.key)
    target: Mapped[int | None] = mapped_column(default=None)  # None: no target score
    hand_limit: Mapped[int | None] = mapped_column(default=None)  # [T3.5], [R7]: hand count
    # The house rules the match plays by (RULES.md §10.1; docs/API.md's `house_rules`
    # shape, `game.house`); None: the rule book. `lead_by`: [R6].
    house_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    lead_by: Mapped[int | None] = mapped_column(default=None)
    started_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    winner_team: Mapped[int | None] = mapped_column(default=None)
    # Derived from the hands, kept so the history lists totals without loading every hand.
    totals: Mapped[list[int]] = mapped_column(JSON, default=list)
    victory: Mapped[list[int] | None] = mapped_column(JSON, default=None)  # [R4]'s totals
    hand_count: Mapped[int] = mapped_column(default=0)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("match.id"), default=None)
    # Sharing without accounts (`codes`): the viewer code opens the match read-only; the
    # score code makes a phone a scorer of the table and opens the match (`views.sharing`).
    # `revision` counts changes, for live views.
    code: Mapped[str] = mapped_column(String(8), unique=True, default=lambda: new_code(8))
    scorer_key: Mapped[str] = mapped_column(String(32), unique=True,
                                            default=lambda: new_code(SCORE_LENGTH))
    revision: Mapped[int] = mapped_column(default=0)
    # Given when the match is stored and with every change, one past the highest of the
    # table's matches (`prebuilt.next_stamp`), so that a table's version (`live`: count,
    # revisions, newest id, stamps) changes even when a deleted match's id is taken again.
    # None: stored before stamps.
    stamp: Mapped[int | None] = mapped_column(default=None)
    # A table of a tournament's round (`Tournament`), and its number in the round (from 1)
    tournament_round_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_round.id", ondelete="SET NULL"), default=None, index=True)
    board: Mapped[int | None] = mapped_column(default=None)

    group: Mapped[Group] = relationship(lazy="joined", innerjoin=True)
    seats: Mapped[list[MatchSeat]] = relationship(
        back_populates="match", order_by="MatchSeat.seat", cascade="all, delete-orphan",
        lazy="selectin")
    all_hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan")
    events: Mapped[list[HandEvent]] = relationship(
        back_populates="match", order_by="HandEvent.id", cascade="all, delete-orphan")

    @property
    def hands(self) -> list[Hand]:
        """The hands in play, in order (deleted hands stay in `all_hands` for the log)."""
        return [h for h in self.all_hands if h.deleted_at is None]

    @property
    def game(self) -> Game:
        """The game this match is played as (`scoring.games`): its hooks, and its
        `variant`, which every variant rule is asked of; the column keeps the variant's
        key."""
        return game_of(scoring.variant(self.variant))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.player.name if s.player else "Dummy" for s in self.seats)

    @property
    def player_names(self) -> list[str]:
        """The players' names by seat, without the Threechu dummy's seat."""
        return [s.player.name for s in self.seats if s.player is not None]

    @property
    def sides(self) -> int:
        """How many totals the match keeps: two teams, one per seat, or none."""
        return self.game.sides(len(self.seats))

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def settings(self) -> Settings:
        """What the match is played as, as its pure state reads it (`scoring.state`)."""
        return Settings(self.game.variant, self.names, self.target, self.hand_limit, self.lead_by,
                        self.house)

    @property
    def house(self) -> scoring.HouseRules:
        """The house rules it plays by (`game.house`); the rule book when none."""
        return scoring.read_house_rules(self.house_rules or None)


class _Counts:
    """What statistics count of a player or a partnership (`scoring.stats.COUNTS`)."""

    matches: Mapped[int] = mapped_column(default=0)
    won: Mapped[int] = mapped_column(default=0)
    hands: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    first_out: Mapped[int] = mapped_column(default=0)
    double_victories: Mapped[int] = mapped_column(default=0)
    tichu_called: Mapped[int] = mapped_column(default=0)
    tichu_made: Mapped[int] = mapped_column(default=0)
    grand_called: Mapped[int] = mapped_column(default=0)
    grand_made: Mapped[int] = mapped_column(default=0)
    bombs: Mapped[int] = mapped_column(default=0, server_default="0")
    hands_won: Mapped[int] = mapped_column(default=0, server_default="0")


class MatchTally(_Counts, db.Model):  # type: ignore[name-defined,misc]
    """One match's counts of one player (`side` 0, `who` the name) or one partnership
    (`side` 1, `who` the sorted names as a JSON list), written in the transaction of every
    change of the match (`statistics`). A game without points has none."""

    __tablename__ = "match_tally"

    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"),
                                          primary_key=True)
    side: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    who: Mapped[str] = mapped_column(String(TALLY_WHO_MAX), primary_key=True)


class TableTally(_Counts, db.Model):  # type: ignore[name-defined,misc]
    """The sum of the `MatchTally` rows of a table's matches of one variant, per player or
    partnership: changed by the difference in the same transaction as they (`statistics`),
    so that /stats reads a few hundred rows, however long the history."""

    __tablename__ = "table_tally"

    group_id: Mapped[int] = mapped_column(ForeignKey("tichu_group.id", ondelete="CASCADE"),
                                          primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    side: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    who: Mapped[str] = mapped_column(String(TALLY_WHO_MAX), primary_key=True)


class MatchSeat(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (UniqueConstraint("match_id", "seat"),  # a player's matches: their page
                      Index("ix_match_seat_player_matches", "player_id", "match_id", "seat",
                            "team"))

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    team: Mapped[int | None]
    # None for the Threechu dummy hand
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship(lazy="joined")


class Hand(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (UniqueConstraint("match_id", "number"),  # a player's wishes missed
                      Index("ix_hand_wish_offender", "match_id", "wish_offender"))

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    # Order of entry, never reused (a deleted hand keeps its number so it can come back);
    # the unique constraint refuses a second phone saving "the same" next hand at once.
    number: Mapped[int]
    # Optimistic lock: every UPDATE of a hand says WHERE version = the version read, and
    # raises if another transaction changed it first (SQLAlchemy's version_id_col).
    version: Mapped[int] = mapped_column(default=1)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    client_id: Mapped[str | None] = mapped_column(String(64), default=None, unique=True)
    # What the table recorded.
    out_order: Mapped[list[int]] = mapped_column(JSON, default=list)
    calls: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # seat -> tichu/grand
    card_points_entered: Mapped[list[int | None]] = mapped_column(JSON, default=list)
    wish_offender: Mapped[int | None] = mapped_column(default=None)
    shuffler: Mapped[int | None] = mapped_column(default=None)  # Threechu: the dummy's partner
    # Derived by tichu_scorer.scoring when the hand is saved.
    card_points: Mapped[list[int]] = mapped_column(JSON, default=list)
    team_scores: Mapped[list[int]] = mapped_column(JSON, default=list)
    player_scores: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
    sweep: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # More per hand, both optional and never scored: bombs played per seat (0–4 each; None
    # when none was counted) and a note.
    bombs: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    note: Mapped[str | None] = mapped_column(String(NOTE_MAX), default=None)

    match: Mapped[Match] = relationship(back_populates="all_hands")

    # the app counts versions itself (an import keeps them); SQLAlchemy checks them
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    @property
    def input(self) -> HandInput:
        """The hand as the pure match state reads it."""
        return stored_hand(self.out_order, self.calls, self.card_points, self.wish_offender,
                           self.shuffler)

    def recorded(self) -> dict[str, Any]:
        """What the table recorded, in the docs/API.md shape (the input of scoring)."""
        points = list(self.card_points_entered or [None, None])
        return {"out_order": list(self.out_order), "calls": dict(self.calls),
                "card_points": points,
                "wish_penalty": None if self.wish_offender is None
                else {"offender": self.wish_offender}} | self.extras()

    def extras(self) -> dict[str, Any]:
        """The bombs and the note, when the hand has them (never scored)."""
        found: dict[str, Any] = {}
        if self.bombs and any(self.bombs):
            found["bombs"] = list(self.bombs)
        if self.note:
            found["note"] = self.note
        return found



class HandEvent(db.Model):  # type: ignore[name-defined,misc]
    """The append-only log of a match: every hand added, edited, deleted, undone, restored."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hand.id", ondelete="SET NULL"))
    position: Mapped[int]  # the hand's number as shown when it happened
    action: Mapped[str] = mapped_column(String(16))  # added/edited/deleted/undone/restored
    summary: Mapped[str] = mapped_column(String(500), default="")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    phone: Mapped[str | None] = mapped_column(String(24), default=None)  # whose (tables/phones.py)

    match: Mapped[Match] = relationship(back_populates="events")


class Tournament(db.Model):  # type: ignore[name-defined,misc]
    """A tournament ([TN1]–[TN4]): its entries, and its rounds, whose tables are matches of
    the tournament's own table (`group`), scored on the table's phones as any match. The
    director is a scorer of that table."""

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(24), unique=True, default=new_key)
    group_id: Mapped[int] = mapped_column(ForeignKey("tichu_group.id", ondelete="CASCADE"),
                                          unique=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    kind: Mapped[str] = mapped_column(String(12))  # "individual" [TN1] or "pairs" [TN3]
    pairing: Mapped[str | None] = mapped_column(String(12), default=None)  # swiss / all
    rounds: Mapped[int]  # planned
    hands: Mapped[int]  # per round ([R7])
    knockout: Mapped[int | None] = mapped_column(default=None)  # pairs: best 2, 4 or 8
    seed: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    group: Mapped[Group] = relationship(lazy="joined", innerjoin=True)
    entries: Mapped[list[TournamentEntry]] = relationship(
        back_populates="tournament", order_by="TournamentEntry.id",
        cascade="all, delete-orphan")
    played: Mapped[list[TournamentRound]] = relationship(
        back_populates="tournament", order_by="TournamentRound.number",
        cascade="all, delete-orphan")


class TournamentEntry(db.Model):  # type: ignore[name-defined,misc]
    """A player of an individual tournament, or a pair of a pairs tournament (`members`:
    its two players). `joined`: the first round it plays (a late arrival's is later);
    `left`: the first round it no longer plays (a drop-out), None while it plays."""

    __table_args__ = (UniqueConstraint("tournament_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(2 * NAME_MAX + 3))
    name_key: Mapped[str] = mapped_column(String(3 * (2 * NAME_MAX + 3)))
    members: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    joined: Mapped[int] = mapped_column(default=1)
    left: Mapped[int | None] = mapped_column(default=None)

    tournament: Mapped[Tournament] = relationship(back_populates="entries")


class TournamentRound(db.Model):  # type: ignore[name-defined,misc]
    """A round drawn: its tables are the matches that point to it; `byes`: the entries that
    sit it out ([TN2]); `unmet`: what the draw could not meet, as the draw said it. One row
    per number: two directors drawing the same round at once store it once."""

    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    stage: Mapped[str] = mapped_column(String(12), default="round")  # or "knockout"
    byes: Mapped[list[str]] = mapped_column(JSON, default=list)
    unmet: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    drawn_at: Mapped[datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="played")
    tables: Mapped[list[Match]] = relationship(order_by="Match.board")
