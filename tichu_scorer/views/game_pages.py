"""What the app shows of each game of `scoring.games`: the match page's template, the hand
form's template and form class. The one place the pages are chosen by the game (a class),
so that the views ask for a match's pages instead of branching on its variant's flags.

>>> from tichu_scorer.game import variants
>>> from tichu_scorer.scoring.games import game_of
>>> pages_of_game(game_of(variants.SEIGNEUR)).hand_template
'hands/ranking.html'
>>> pages_of_game(game_of(variants.THREECHU)).hands_table
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..forms import hand_form_class, ranking_form_class
from ..models import Match
from ..scoring.games import Game, PointsGame, RankingGame


class GamePages(NamedTuple):
    match_template: str  # the match page's body
    hand_template: str  # the form that enters or edits one hand
    form_class: Callable[[int], type[Any]]  # the hand form's class for this many seats
    hands_table: bool  # the match page has a table of each hand's scores and a chart


PAGES: dict[type[Game], GamePages] = {
    PointsGame: GamePages("matches/show.html", "hands/new.html", hand_form_class, True),
    RankingGame: GamePages("matches/seigneur.html", "hands/ranking.html", ranking_form_class,
                           False),
}


def pages_of_game(game: Game) -> GamePages:
    return PAGES[type(game)]


def pages_of(match: Match) -> GamePages:
    """The pages a match is shown with."""
    return pages_of_game(match.game)
