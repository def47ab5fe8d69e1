"""The app's form base: WTForms' own messages in the reader's language, and problems
grouped by the field group a page shows them in, each with its rule id."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import SelectMultipleField

from .. import i18n
from ..scoring import Problem


class Form(FlaskForm):
    """The app's forms: WTForms' own messages ("Not a valid choice") in the reader's
    language from translations loaded once per process (Flask-WTF reads the catalogue file
    again on every request that validates a form)."""

    class Meta(FlaskForm.Meta):
        def get_translations(self, form: Any) -> Any:
            return i18n.wtforms_translations()


class ProblemsMixin:
    """Problems from the pure core, grouped for display next to their fields."""

    problems: dict[str, list[Problem]]

    def validate(self, extra_validators: Any = None) -> bool:
        """The form's own checks, and each field sent only once: WTForms would silently
        take a repeated field's first value (`card_a=50&card_a=30`)."""
        valid: bool = super().validate(extra_validators)  # type: ignore[misc]
        repeated = [f for f in self  # type: ignore[attr-defined]
                    if len(f.raw_data or ()) > 1 and not isinstance(f, SelectMultipleField)]
        for f in repeated:
            f.errors.append(gettext("The field “%(field)s” was sent more than once; send "
                                    "one value.", field=f.name))
        if repeated:
            self._errors = None  # WTForms' cache of `errors`, made by the checks above
        return valid and not repeated

    def add_problem(self, group: str, problem: Problem) -> None:
        self.problems[group].append(problem)

    def shape_problems(self, rules: dict[str, tuple[str, str]]) -> None:
        """Turn WTForms shape errors into problems: field -> (group, rule)."""
        for name, errors in self.errors.items():  # type: ignore[attr-defined]
            group, rule = rules.get(name, (name, "P5"))
            for message in errors:
                self.problems[group].append(Problem(name, rule, message))

    def attach_settings(self, problems: Iterable[Problem],
                        places: Mapping[str, tuple[str, str]]) -> None:
        """The core's problems of a match's settings (`scoring.settings_problems`), each
        next to this form's field: the core's field -> (group, the form's field). A field
        that already has a problem (left empty, say) gets no second one; each group keeps
        its problems in the order of its fields on the page."""
        taken = {p.field for found in self.problems.values() for p in found}
        for problem in problems:
            group, field = places.get(problem.field, (problem.field, problem.field))
            if field not in taken:
                self.add_problem(group, Problem(field, problem.rule, problem.message))
        fields = list(self._fields)  # type: ignore[attr-defined]
        order = {name: place for place, name in enumerate(fields)}
        for group in {group for group, _field in places.values()} & set(self.problems):
            self.problems[group].sort(key=lambda p: order.get(p.field, len(order)))
