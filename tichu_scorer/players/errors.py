"""What a change of the table's players refuses: the field it names, the message, the rule
(where one applies) and the HTTP status the request is answered with."""

from __future__ import annotations


class Refused(Exception):
    def __init__(self, field: str, message: str, rule: str | None = None,
                 status: int = 422) -> None:
        super().__init__(message)
        self.field, self.message, self.rule, self.status = field, message, rule, status

    def as_dict(self) -> dict[str, str]:
        found = {"field": self.field, "message": self.message}
        return found | ({"rule": self.rule} if self.rule else {})
