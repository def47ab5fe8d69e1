"""The score-progression chart of a match as plain geometry for an inline SVG (no chart
framework, no script): one line per side, the target, and a marker per call. Pure: the
server's match page and the phone's copy of the core (answers.waiting, with hands waiting
to be sent) draw it with the same functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..scoring import Call, call_made, read_call

WIDTH, HEIGHT, PAD = 340, 200, 28
LABEL_CHAR = 6  # the width of a digit of the axis labels (10px type), with room to spare
FITTING = 4  # characters of a score label that fit left of the usual margin ("1000", "-250")
STEPS = (25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000)


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    made: bool
    label: str  # its tooltip: "hand 3: Ann: Tichu made" (the table says it for screen readers)

    @property
    def corner(self) -> str:
        """Where a failed call's cross starts (its top left), as a path's "x y"; the cross
        itself is drawn in relative steps, the same for every marker."""
        return f"{round(self.x - 4, 1)} {round(self.y - 4, 1)}"


@dataclass(frozen=True)
class Chart:
    lines: list[tuple[str, list[tuple[float, float]]]]  # (css class, points left to right)
    markers: list[Marker]
    target_y: float | None
    zero_y: float
    y_labels: list[tuple[int, int]]  # (y, score)
    x_labels: list[tuple[float, int]]
    left: int = PAD  # where the plot starts: wide enough for the longest score label
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def paths(self) -> list[tuple[str, str]]:
        """Each line as an SVG path: (css class, d)."""
        return [(css, relative_path(points)) for css, points in self.lines]


def _number(tenths: int) -> str:
    """A length in tenths as SVG writes it shortest: 14 -> "1.4", -7 -> "-.7", 20 -> "2"."""
    whole, tenth = divmod(abs(tenths), 10)
    text = (str(whole) if whole or not tenth else "") + (f".{tenth}" if tenth else "")
    return ("-" + text) if tenths < 0 else text


def relative_path(points: Sequence[tuple[float, float]]) -> str:
    """"M x y" then one relative step per point. A long match's line repeats the same few
    steps (the x step is constant), which compression all but removes; absolute points
    ("34.0,172.0 35.4,171.3 …") cost a kilobyte more on a 200-hand page. The steps are
    taken between the rounded points, so the line ends where its last point is."""
    tenths = [(round(x * 10), round(y * 10)) for x, y in points]
    out = [f"M{_number(tenths[0][0])} {_number(tenths[0][1])}"] if tenths else []
    for (x0, y0), (x1, y1) in pairwise(tenths):
        dy = _number(y1 - y0)
        out.append(f"l{_number(x1 - x0)}{dy if dy.startswith('-') else ' ' + dy}")
    return "".join(out)


def build(running: Sequence[Sequence[int]], classes: Sequence[str], target: int | None,
          calls: Sequence[Sequence[tuple[int, str, bool]]],
          mark: str = "hand %(n)s: %(what)s") -> Chart | None:
    """`running[h][side]` totals after hand h; `calls[h]` = (side, label, made) per call;
    `mark` the markers' tooltip, translated ("hand %(n)s: %(what)s")."""
    if not running:
        return None
    values = [v for row in running for v in row] + [0]
    if target:
        values.append(target)
    low, high = min(values), max(values)
    span = max(high - low, 100)
    hands = len(running)
    step = next((s for s in STEPS if span / s <= 6), STEPS[-1])  # three to six lines
    first = (low // step) * step
    shown = [v for v in range(int(first), int(high) + step, step) if low <= v <= high]
    # "10000" or "-1000" would be clipped at the left edge with the usual margin
    left = PAD + LABEL_CHAR * max(0, max(len(str(v)) for v in shown or [0]) - FITTING)

    def x(i: int) -> float:
        return round(left + (WIDTH - left - PAD) * i / max(hands, 1), 1)

    def y(v: float) -> int:
        # whole units (about a CSS pixel on a phone): a tenth more would be invisible, and
        # would cost a long match's page a few hundred bytes
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / span)

    lines = []
    sides = len(classes)
    # with more than two sides, partners often share a total: a small offset per side keeps
    # every line visible where they run together (a side's call markers sit on its line)
    nudges = [round((side - (sides - 1) / 2) * 2) if sides > 2 else 0 for side in range(sides)]
    for side, css in enumerate(classes):
        nudge = nudges[side]
        points: list[tuple[float, float]] = [(x(0), y(0) + nudge)]
        points += [(x(i + 1), y(row[side]) + nudge) for i, row in enumerate(running)]
        lines.append((css, points))
    markers = [Marker(x(i + 1), y(running[i][side]) + nudges[side], made,
                      mark % {"n": i + 1, "what": label})
               for i, hand_calls in enumerate(calls) for side, label, made in hand_calls]
    y_labels = [(y(v), v) for v in shown]
    every = max(1, hands // 6)
    x_labels = [(x(i), i) for i in range(0, hands + 1, every)]
    return Chart(lines, markers, y(target) if target and low <= target <= high else None,
                 y(0), y_labels, x_labels, left)


def call_marks(side_of: Mapping[int, int], names: Sequence[str],
               hands: Sequence[tuple[Mapping[Any, str], Sequence[int]]],
               outcome: Mapping[bool, str], said: Mapping[str, str]
               ) -> list[list[tuple[int, str, bool]]]:
    """Each hand's calls as markers (side, label, made): `hands` are (calls by seat, out
    order); `outcome` the translated "%(name)s: %(call)s made" / "… failed", `said` each
    call's translated name (translated once per chart, not per call); a match's own call
    ([R9]) is named as it is."""
    calls = []
    for hand_calls, out_order in hands:
        marks = []
        for seat, call in hand_calls.items():
            made = call_made(int(seat), out_order)
            meant = read_call(call)
            shown = said.get(meant.value, meant.value) if isinstance(meant, Call) else call
            label = outcome[made] % {"name": names[int(seat)], "call": shown}
            marks.append((side_of[int(seat)], label, made))
        calls.append(marks)
    return calls


def geometry(chart: Chart | None) -> dict[str, Any] | None:
    """The chart as JSON for the phone's page to draw as the server's template does."""
    if chart is None:
        return None
    return {"paths": chart.paths, "target_y": chart.target_y, "zero_y": chart.zero_y,
            "y_labels": chart.y_labels, "x_labels": chart.x_labels, "left": chart.left,
            "width": chart.width, "height": chart.height,
            "markers": [[m.x, m.y, m.made, m.label, m.corner] for m in chart.markers]}
