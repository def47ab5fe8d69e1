"""Translatable messages in the pure core, without a web import: the core marks its
sentences with `_`, and the web layer installs the translator (Flask-Babel's gettext) at
start-up. Until then, and in pure use, messages stay in English.

>>> _("Seat {seat} does not exist.").format(seat=9)
'Seat 9 does not exist.'
"""

from __future__ import annotations

from collections.abc import Callable

_translator: Callable[[str], str] = str
_plural: Callable[[str, str, int], str] | None = None


def set_translator(translate: Callable[[str], str],
                   plural: Callable[[str, str, int], str] | None = None) -> None:
    """Install the translator, and its plural forms' (`ngettext`) where there are any."""
    global _translator, _plural
    _translator, _plural = translate, plural


def translator() -> tuple[Callable[[str], str], Callable[[str, str, int], str] | None]:
    """The translator installed now (to install it again after a while: `set_translator`)."""
    return _translator, _plural


def _(message: str) -> str:
    """The message in the reader's language (English without a translator)."""
    if _translator is str:  # pure use (tests, benchmarks): no call at all
        return message
    return _translator(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The message for `n` in the reader's language (English's two forms without one).

    >>> ngettext("%(num)d card", "%(num)d cards", 2) % {"num": 2}
    '2 cards'
    """
    if _plural is None:
        return singular if n == 1 else plural
    return _plural(singular, plural, n)


def N_(message: str) -> str:  # the conventional name for "mark only"
    """Mark a message for translation where it is defined; translate it where shown."""
    return message
