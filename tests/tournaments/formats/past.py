"""A tournament as a format's draw reads it (`formats.Past`), made by hand: no database."""

from __future__ import annotations

from dataclasses import dataclass, field

from tichu_scorer.tournaments import draw, standings


@dataclass(frozen=True)
class Row:
    """An entry as stored."""

    name: str
    members: tuple[str, ...] | None = None
    joined: int = 1
    left: int | None = None


@dataclass
class Past:
    entries: list[Row]
    rounds: int = 3
    seed: int = 7
    knockout: int | None = None
    played: list[standings.Round] = field(default_factory=list)
    sat: tuple[draw.Round, ...] = ()
    reads: int = 0

    def tables(self) -> list[standings.Round]:
        self.reads += 1
        return self.played

    def seatings(self) -> tuple[draw.Round, ...]:
        return self.sat


def pairs(count: int, **kwargs) -> Past:
    return Past([Row(f"P{i}", (f"A{i}", f"B{i}")) for i in range(count)], **kwargs)


def table(board: int, a: str, b: str, winner: int | None, over: bool = True,
          points: tuple[int, int] = (100, 0)) -> standings.Table:
    """A table of two pairs (or two sides of one name each)."""
    return standings.Table(board, ((a,), (b,)), (2, 0) if winner == 0 else (0, 2), points,
                           1, over, winner)
