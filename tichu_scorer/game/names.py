"""A player's name as the table types it: one way to read it everywhere (the match form, a
rename, a tournament's entries, an import).

Spaces are collapsed; two names are one player when they differ only in case, spacing or in
characters nobody sees (`key`); and a name may not hold a character that is invisible or
changes how the names beside it read (`hidden`): a control character, or a format character
such as a zero-width space or a right-to-left override. The zero-width joiner and
non-joiner stay allowed: emoji sequences and some scripts need them.

>>> key("  Fr\\u200bitz  ") == key("FRITZ")
True
>>> hidden("Anne\\u202e"), hidden("Fritz"), hidden("👩\\u200d👩\\u200d👧")
('U+202E', None, None)
"""

from __future__ import annotations

import unicodedata

JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner


def collapsed(name: str) -> str:
    """The name with its spaces collapsed, as it is stored."""
    return " ".join(name.split())


def key(name: str) -> str:
    """What makes two names one player: case, spacing and unseen characters ignored."""
    seen = "".join(c for c in collapsed(name) if unicodedata.category(c) != "Cf")
    return " ".join(seen.split()).casefold()


def hidden(name: str) -> str | None:
    """The first character of `name` that a name may not hold (as "U+202E"), else None."""
    for c in name:
        category = unicodedata.category(c)
        if category == "Cc" and not c.isspace() or category == "Cf" and c not in JOINERS:
            return f"U+{ord(c):04X}"
    return None
