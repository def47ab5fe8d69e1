"""WTForms: shape checks only. Meaning comes from the pure core (`scoring`: a hand's
problems, a match's settings' problems); each problem it reports is attached to the field
group it concerns, with its rule id.

`base` (the form base and its problems), `house` (a match's own house rules as boxes),
`matches` (the new-match form, the settings page), `hands` (the hand forms), `pages` (the
referee's question, a phone's name)."""

from .base import Form, ProblemsMixin
from .hands import HandFormBase, RankingFormBase, hand_form_class, ranking_form_class
from .house import OWN_CALLS_LENGTH, HouseRulesMixin, own_calls
from .matches import MatchSettingsForm, NewMatchForm, same_player
from .pages import PhoneForm, RefereeForm

__all__ = [
    "Form", "ProblemsMixin", "HandFormBase", "RankingFormBase", "hand_form_class",
    "ranking_form_class", "OWN_CALLS_LENGTH", "HouseRulesMixin", "own_calls",
    "MatchSettingsForm", "NewMatchForm", "same_player", "PhoneForm", "RefereeForm",
]
