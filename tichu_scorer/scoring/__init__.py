"""Pure scoring of hands and matches (RULES.md §7–§9). No web or database imports."""

from ..game.layouts import (
                   DUMMY,
                   NANKING,
                   TIENTSIN,
                   Layout,
                   threechu,
)
from ..game.variants import VARIANTS, Side, SideKind, Variant, find, variant
from .hand import (
                   Call,
                   CallResult,
                   Derived,
                   HandInput,
                   HandResult,
                   InvalidHand,
                   Problem,
                   card_point_problems,
                   derive,
                   full_out_order,
                   hand_problems,
                   is_sweep,
                   score_hand,
)
from .match import (
                   DEFAULT_TARGET,
                   MatchState,
                   fixed_length_state,
                   hands_after_the_end,
                   hands_problem,
                   match_state,
                   result_after,
                   target_problem,
                   tied_at_top,
                   winner,
)
from .read import read_hand

__all__ = [
    "Call", "CallResult", "Derived", "derive", "HandInput", "HandResult", "InvalidHand", "Problem",
    "card_point_problems", "full_out_order", "hand_problems", "is_sweep", "score_hand",
    "DUMMY", "NANKING", "TIENTSIN", "Layout", "threechu", "DEFAULT_TARGET", "MatchState",
    "fixed_length_state", "hands_after_the_end", "hands_problem",
    "match_state", "result_after", "target_problem", "tied_at_top", "winner", "read_hand",
    "VARIANTS", "Side", "SideKind", "Variant", "find", "variant",
]
