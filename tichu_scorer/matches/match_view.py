"""The match page's view models: the totals, a row per hand with its words translated
once per page, Grand Seigneur's titles and records, all from one pure match state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.hand_rows import RowNotes, RowWords
from ..core.regions import Board
from ..models import Match
from ..scoring import Side, seigneur
from ..scoring.games import Game, PointsGame, RankingGame
from ..scoring.state import MatchState
from .hand_reads import HandLine, hand_lines


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



class HandRow(NamedTuple):
    position: int
    hand: HandLine
    running: tuple[int, ...]
    deltas: tuple[int, ...]
    first_out: str | None
    call_notes: list[tuple[str, str, bool]]  # (name, Tichu/Grand Tichu, made)
    ranking: tuple[str, ...] = ()
    notes: RowNotes | None = None  # the row's words, translated (`match_page`)

    @property
    def number(self) -> int:
        """The hand's entry number (its edit link's)."""
        return self.hand.number


@dataclass(frozen=True)
class MatchPage:
    match: Match
    sides: list[Total]
    rows: list[HandRow]
    next_shuffler: str | None
    dummy_partner: str | None = None  # Threechu: who plays the dummy next hand
    notes_below: bool = False  # a total per player: a hand's notes take a row of their own
    ranking: list[Total] = field(default_factory=list)
    titles: list[tuple[str, str]] = field(default_factory=list)  # (title, name), next seating
    pushes: list[seigneur.Push] = field(default_factory=list)
    records: list[tuple[str, seigneur.PlayerRecord]] = field(default_factory=list)
    tied_at: int | None = None  # [E2]: tied at the top at or above the target, play goes on
    next_seat: int | None = None  # who shuffles next, by seat

    @property
    def board(self) -> Board:
        """Where the match stands, as its page's regions draw it (`regions`)."""
        m = self.match
        return Board(m.game, m.names, tuple(t.total for t in self.sides), m.hand_count,
                     m.hand_limit, m.target, m.finished, m.winner_team,
                     tuple(m.victory or ()), self.tied_at)


def side_labels(match: Match) -> list[str]:
    """A short label per total: the team letters, or the players' names."""
    return [side.label for side in match.game.variant.sides(match.names)]


def sides_of(match: Match) -> list[Total]:
    """The match's totals with who holds each (none in a ranked game)."""
    totals = match.totals or [0] * match.sides
    return [Total(side, totals[side.index] if side.index < len(totals) else 0,
                  match.winner_team == side.index)
            for side in match.game.variant.sides(match.names)]


def match_page(match: Match) -> MatchPage:
    """Everything the match page shows, computed in one pass over the hands (which are
    read first: reading them may read the match again, see `hand_lines`), by the page
    builder of the match's game."""
    hands = hand_lines(match)
    settings = match.settings
    state = MatchState.of(settings, [h.input for h in hands])
    return _PAGES[type(settings.game)](match, match.names, hands, state)


def _points_page(match: Match, names: tuple[str, ...], hands: list[HandLine],
                 state: MatchState) -> MatchPage:
    sides = sides_of(match)
    words = RowWords(match.game.variant.sweep_title)
    rows = []
    for hand, played in zip(hands, state.hands, strict=True):
        first = played.first_out
        notes = [(names[c.seat], c.call.label, c.made) for c in played.calls]
        rows.append(HandRow(played.number, hand, played.running, played.scores,
                            names[first] if first is not None else None, notes,
                            notes=words.notes(names, played, hand.shuffler, hand.bombs,
                                              hand.note)))
    shuffler = state.next_shuffler
    dealer = names[shuffler] if shuffler is not None else None
    partner = dealer if state.settings.game.plays_dummy(shuffler) else None
    if not sides[0].side.is_team:  # players' totals: ranked at the end ([T3.5])
        ranking = sorted(sides, key=lambda s: -s.total)
        return MatchPage(match, sides, rows, dealer, dummy_partner=partner, ranking=ranking,
                         notes_below=True, next_seat=shuffler)
    tied = None if match.finished else state.tied_at
    return MatchPage(match, sides, rows, dealer, dummy_partner=partner, tied_at=tied,
                     next_seat=shuffler)


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


# The page builder of each game (a class of `scoring.games`), not a branch on a flag.
_PAGES: dict[type[Game], Callable[[Match, tuple[str, ...], list[HandLine], MatchState],
                                  MatchPage]] = {PointsGame: _points_page,
                                                 RankingGame: _seigneur_page}
