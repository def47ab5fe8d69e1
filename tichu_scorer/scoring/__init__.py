"""Pure scoring of hands and matches (RULES.md §7–§9). No web or database imports."""

from ..game.house import RULE_BOOK, HouseRules, HouseRulesError, read_house_rules
from ..game.layouts import (
                   DUMMY,
                   NANKING,
                   TIENTSIN,
                   Layout,
                   threechu,
)
from ..game.variants import VARIANTS, Side, SideKind, Variant, find, variant
from .calls import AnyCall, Call, CustomCall, call_name, read_call
from .hand import (
                   CallResult,
                   Derived,
                   HandInput,
                   HandResult,
                   InvalidHand,
                   Problem,
                   call_made,
                   card_point_problems,
                   derive,
                   full_out_order,
                   hand_problems,
                   is_sweep,
                   score_hand,
                   victory_points,
)
from .match import DEFAULT_TARGET, leader, tied_at_top, winner
from .read import read_hand, read_layout
from .settings import hands_problem, settings_problems, target_problem
from .state import MatchState, PlayedHand, Settings

__all__ = [
    "AnyCall", "Call", "CallResult", "CustomCall", "victory_points", "RULE_BOOK",
    "HouseRules", "HouseRulesError", "read_house_rules", "call_made", "Derived", "derive",
    "HandInput", "HandResult",
    "InvalidHand", "Problem", "card_point_problems", "full_out_order", "hand_problems",
    "is_sweep", "call_name", "read_call", "score_hand", "DUMMY", "NANKING", "TIENTSIN",
    "Layout", "threechu",
    "DEFAULT_TARGET", "hands_problem", "leader", "target_problem", "tied_at_top", "winner",
    "settings_problems", "read_hand", "read_layout", "MatchState", "PlayedHand", "Settings",
    "VARIANTS", "Side", "SideKind", "Variant", "find", "variant",
]
