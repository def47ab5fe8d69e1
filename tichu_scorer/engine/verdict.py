"""The referee's answer: a `Verdict`, whose reason (the prose a player reads) is written only
when it is read.

A verdict reads as the named tuple it always was — `legal`, `rule`, `reason`,
`combination`, `fulfilling_play`, `reading`, `dragon_gift`, in that order, by name, by
index, unpacked or compared — but the referee decides a question without composing its
sentences: it hands the verdict a function that writes the reason (`Prose`), called on
each reading, so a caller that wants only `legal` and `rule` pays for no prose. The text
is the same whenever it is read, in the language installed at that moment
(`game.i18n`): the web layer reads it within the request that asked.

>>> v = Verdict(True, "H5", lambda: "A player may pass.")
>>> v.reason, v[2], v == (True, "H5", "A player may pass.", None, None, None, None)
('A player may pass.', 'A player may pass.', True)
>>> legal, rule, reason, *rest = v; (legal, rule, reason)
(True, 'H5', 'A player may pass.')
>>> v
Verdict(legal=True, rule='H5', reason='A player may pass.', combination=None, \
fulfilling_play=None, reading=None, dragon_gift=None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, SupportsIndex, overload

from .cards import Card
from .combos import Combination

if not TYPE_CHECKING:
    from collections import _tuplegetter  # a named tuple's field getter (CPython, Pyodide)

Prose = Callable[[], str]  # writes a reason, in the language installed when called

_new = tuple.__new__
_item = tuple.__getitem__
_FIELDS = ("legal", "rule", "reason", "combination", "fulfilling_play", "reading",
           "dragon_gift")


class Described:
    """The `reading` of a verdict whose combination's own description is its reading."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DESCRIBED"


DESCRIBED = Described()


class DragonGift(NamedTuple):
    """What becomes of the trick a lawful Dragon wins: given to an opponent ([S6]), or kept
    by a player who goes out with it ([R5]); `given_away` is None when that depends on
    whether the Dragon is the player's last card (the hand was not given)."""

    given_away: bool | None
    rule: str

    def as_dict(self) -> dict[str, object]:
        return {"given_away": self.given_away, "rule": self.rule}


class Verdict(tuple[Any, ...]):
    """The referee's answer: legal or not, the deciding rule and the reason (immutable; a
    tuple because one is built per question). `reason` may be given as text or as the
    `Prose` that writes it; `reading` as text, None, or `DESCRIBED` (the combination's
    description)."""

    __slots__ = ()
    _fields = __match_args__ = _FIELDS
    _field_defaults = {name: None for name in _FIELDS[3:]}

    def __new__(cls, legal: bool, rule: str, reason: str | Prose,
                combination: Combination | None = None,
                fulfilling_play: tuple[Card, ...] | None = None,
                reading: str | Described | None = None,
                dragon_gift: DragonGift | None = None) -> Verdict:
        return _new(cls, (legal, rule, reason, combination, fulfilling_play, reading,
                          dragon_gift))

    if TYPE_CHECKING:
        @property
        def legal(self) -> bool: ...

        @property
        def rule(self) -> str: ...

        @property
        def combination(self) -> Combination | None: ...

        @property
        def fulfilling_play(self) -> tuple[Card, ...] | None: ...

        @property
        def dragon_gift(self) -> DragonGift | None:
            """A lawful Dragon: its trick's fate ([S6], [R5])."""
    else:  # read as a named tuple's fields are, in C (not through `__getitem__`)
        legal, rule, combination, fulfilling_play, dragon_gift = (
            _tuplegetter(i, None) for i in (0, 1, 3, 4, 6))

    @property
    def reason(self) -> str:
        why = _item(self, 2)
        return why if why.__class__ is str else why()

    @property
    def reading(self) -> str | None:
        """The combination described, when the reason already did."""
        text = _item(self, 5)
        if text is DESCRIBED:
            return _item(self, 3).describe()  # type: ignore[no-any-return]
        return text  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Any]:
        return iter((self.legal, self.rule, self.reason, self.combination,
                     self.fulfilling_play, self.reading, self.dragon_gift))

    @overload
    def __getitem__(self, index: SupportsIndex) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        return tuple(self)[index]

    def __contains__(self, value: object) -> bool:
        return value in tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, tuple) and tuple(self) == tuple(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __getnewargs__(self) -> tuple[Any, ...]:  # (pickled with its text)
        return tuple(self)

    def __repr__(self) -> str:
        return "Verdict(" + ", ".join(f"{name}={value!r}" for name, value in
                                      zip(_FIELDS, self, strict=True)) + ")"

    @classmethod
    def _make(cls, fields: Iterable[Any]) -> Verdict:
        return cls(*fields)

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(_FIELDS, self, strict=True))

    def _replace(self, **changes: Any) -> Verdict:
        return Verdict(**(self._asdict() | changes))

    def as_dict(self) -> dict[str, object]:
        """The docs/API.md shape."""
        play = self.combination
        out: dict[str, object] = {
            "legal": self.legal, "rule": self.rule, "reason": self.reason,
            "combination": play.as_dict() if play else None}
        if play is not None:
            out["reading"] = self.reading or play.describe()
        if self.fulfilling_play is not None:
            out["fulfilling_play"] = [repr(c) for c in self.fulfilling_play]
        if self.dragon_gift is not None:
            out["dragon_gift"] = self.dragon_gift.as_dict()
        return out


__all__ = ["DESCRIBED", "DragonGift", "Prose", "Verdict"]
