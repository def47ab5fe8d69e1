"""Codes read out, typed or scanned at a table: how they are made, shown and read back.

A code is made of `ALPHABET`. It holds 0 and 1 but not their look-alikes O, I and L, so a
code typed as it looks or as it sounds is read as the code it is: whatever a phone sends,
`read` takes any case, any spacing and any dash, reads O as 0 and I or L as 1, and gives the
code or None. The lengths tell the codes apart: a match's viewer code and a table's invite
code have 8 characters (6 for matches stored before), a match's score code 12.

>>> read(" dsm9-r6fq ")
'DSM9R6FQ'
>>> read("AB1O DEFG")
'AB10DEFG'
>>> shown("DSM9R6FQ")
'DSM9 R6FQ'
"""

from __future__ import annotations

import secrets
import unicodedata

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTUVWXYZ"
LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})
# Besides spaces, what a phone's keyboard or a reader may put between the groups of a code:
# a dash of any kind (Unicode's Pd: -, ‐, –, —), an underscore or another connector (Pc), a
# dot or a middle dot
SEPARATORS = frozenset(".·")
CODE_LENGTH = 8  # a viewer code or an invite code
OLD_CODE_LENGTH = 6  # a viewer code given before codes had 8 characters
WATCH_LENGTH = 10  # a watch code: a table's board or evening on a screen, nothing else
SCORE_LENGTH = 12  # a score code: scoring rights, so longer than a code that lets one watch
LENGTHS = (OLD_CODE_LENGTH, CODE_LENGTH, WATCH_LENGTH, SCORE_LENGTH)
TYPED_MAX = 40  # longer input is no code, and is not looked at further


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def cleaned(typed: str) -> str:
    """`typed` as a code is written: in capitals, without its spaces and dashes, the
    look-alikes read as the characters they look like (what a page quotes back, and what
    a rate limit counts). Input longer than `TYPED_MAX` is cut there first."""
    text = unicodedata.normalize("NFKC", typed[:TYPED_MAX]).upper()
    kept = (c for c in text
            if not (c.isspace() or c in SEPARATORS or unicodedata.category(c) in ("Pd", "Pc")))
    return "".join(kept).translate(LOOK_ALIKES)[:TYPED_MAX]


def read(typed: str) -> str | None:
    """The code `typed` means, or None when it cannot be one (wrong length, a character no
    code holds, longer than `TYPED_MAX`)."""
    if len(typed) > TYPED_MAX:
        return None
    code = cleaned(typed)
    return code if is_code(code) else None


def is_code(text: str, length: int | None = None) -> bool:
    """`text` is a code as stored (of `length`, or of any length a code has)."""
    return (len(text) == length if length else len(text) in LENGTHS) and all(
        c in ALPHABET for c in text)


def shown(code: str) -> str:
    """A code in groups, as a page shows it and a player reads it out: of four characters
    (three for a code of six)."""
    size = 3 if len(code) == OLD_CODE_LENGTH else 4
    return " ".join(code[i:i + size] for i in range(0, len(code), size))
