"""The house rules a match's own set is made of (RULES.md §10.1), as the new-match form and
the settings page ask them: a box per row of `game.house.FLAGS`, [R6]'s lead and [R9]'s own
calls as typed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, IntegerField, StringField
from wtforms.validators import Length, Optional

from ..game.house import FLAGS, RULE_BOOK, HouseRules, HouseRulesError, read_house_rules
from ..game.i18n import N_
from ..scoring import Problem
from ..scoring.settings import HANDS, LEAD, TARGET, THREECHU_HANDS, Bounds

OWN_CALLS_LENGTH = 200  # [R9]: the own calls as typed (the pages' maxlength)
# the number fields' bounds, as the pages give them to the browser (`Bounds.html`)
BOUNDS: dict[str, Bounds] = {"target": TARGET, "lead_by": LEAD, "fixed_hands": HANDS,
                             "hands": THREECHU_HANDS}


class HouseRulesMixin:
    """The boxes of `FLAGS`, [R6]'s lead and [R9]'s own calls; `own_rules` reads them,
    `show_rules` ticks them as a match's rules do. The pages list `flag_fields()` and take
    `bounds`, naming no rule themselves."""

    problems: dict[str, list[Problem]]
    bounds = BOUNDS
    calls_length = OWN_CALLS_LENGTH
    lead_by = IntegerField(N_("The match ends at a lead of"), validators=[Optional()])
    custom_calls = StringField(N_("Own calls, worth like Tichu"), validators=[
        Optional(), Length(max=OWN_CALLS_LENGTH, message=_l(
            "Own calls: at most %(max)d characters; shorten their names."))])

    def flag_fields(self) -> list[Field]:
        """A box per house rule of `FLAGS`, in its order."""
        return [getattr(self, flag.box) for flag in FLAGS]

    def own_rules(self) -> HouseRules:
        rules = RULE_BOOK
        for flag in FLAGS:
            rules = flag.rules(rules, getattr(self, flag.box).data)
        return replace(rules, custom_calls=self.own_calls())

    def own_calls(self) -> tuple[tuple[str, int], ...]:
        """[R9]: "blind = 400, small = 50" as the core reads it; () where it cannot
        (`check_calls` says why)."""
        try:
            return read_house_rules({"custom_calls": own_calls(self.custom_calls.data)}
                                    ).custom_calls
        except (HouseRulesError, ValueError):
            return ()

    def check_calls(self) -> None:
        """[R9]: each call a name and its points (a multiple of 50, like Tichu's 100); not
        asked of a text already refused for its length."""
        if self.custom_calls.errors:
            return
        try:
            read_house_rules({"custom_calls": own_calls(self.custom_calls.data)})
        except HouseRulesError as exc:
            self.problems["house"].append(Problem("custom_calls", "R9", gettext(
                "Own calls: %(why)s. Write them as “blind = 400, small = 50”.",
                why=exc.message.split(": ", 1)[-1].removesuffix(" (R9)."))))
        except ValueError:
            self.problems["house"].append(Problem("custom_calls", "R9", gettext(
                "Own calls: write each as a name, “=” and its points, separated by commas: "
                "“blind = 400, small = 50”.")))

    def show_rules(self, rules: HouseRules, lead_by: int | None) -> None:
        """The boxes as these rules tick them."""
        for flag in FLAGS:
            getattr(self, flag.box).data = flag.ticked(rules)
        self.lead_by.data = lead_by
        self.custom_calls.data = ", ".join(f"{n} = {v}" for n, v in rules.custom_calls)

    @staticmethod
    def house_shapes() -> dict[str, tuple[str, str]]:
        """The house rules' fields -> (group, rule) for their shape problems."""
        return ({"lead_by": ("house", "R6"), "custom_calls": ("house", "R9")}
                | {flag.box: ("house", "R1") for flag in FLAGS})


for _flag in FLAGS:
    setattr(HouseRulesMixin, _flag.box, BooleanField(_flag.label))


def own_calls(text: str | None) -> dict[str, Any]:
    """[R9]'s calls as typed: "blind = 400, small = 50" (also "blind: 400"); ValueError
    for a part without a name and points.

    A name typed twice, in any capitals, keeps both values, which the house rules refuse
    ([R9]: one call a name), never the last silently.

    >>> own_calls("blind = 400, Small:50")
    {'blind': 400, 'Small': 50}
    >>> own_calls("blind = 50, BLIND = 100")
    {'blind': [50, 100]}
    """
    found: dict[str, Any] = {}
    spelled: dict[str, str] = {}  # casefolded name -> its first spelling
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, points = part.replace(":", "=").partition("=")
        if not sep or not name.strip():
            raise ValueError(part)
        value = points.strip()
        number: int | str = int(value) if value.lstrip("-").isdigit() else value
        name = spelled.setdefault(" ".join(name.split()).casefold(), " ".join(name.split()))
        if name in found:
            before = found[name]
            found[name] = [*(before if isinstance(before, list) else [before]), number]
        else:
            found[name] = number
    return found
