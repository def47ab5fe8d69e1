"""Pure scoring of hands and matches (RULES.md §7–§9). No web or database imports."""

from .hand import (
                   Call,
                   CallResult,
                   HandInput,
                   HandResult,
                   InvalidHand,
                   Problem,
                   card_point_problems,
                   full_out_order,
                   hand_problems,
                   is_sweep,
                   score_hand,
)
from .layouts import (
                   DUMMY,
                   NANKING,
                   PLAYERS,
                   TIENTSIN,
                   VARIANTS,
                   Layout,
                   threechu,
                   threechu_hand,
                   threechu_shuffler,
)
from .match import (
                   DEFAULT_TARGET,
                   MatchState,
                   fixed_length_state,
                   hands_problem,
                   match_state,
                   result_after,
                   target_problem,
                   winner,
)
from .read import read_hand

__all__ = [
    "Call", "CallResult", "HandInput", "HandResult", "InvalidHand", "Problem",
    "card_point_problems", "full_out_order", "hand_problems", "is_sweep", "score_hand",
    "DUMMY", "NANKING", "PLAYERS", "TIENTSIN", "VARIANTS", "Layout", "threechu", "threechu_hand",
    "threechu_shuffler", "DEFAULT_TARGET", "MatchState", "fixed_length_state", "hands_problem",
    "match_state", "result_after", "target_problem", "winner", "read_hand",
]
