"""The project's rule book (docs/RULES.md) as HTML, each rule id an anchor (`/rules#W2`)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from markupsafe import Markup

RULES_PATH = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
_RULE_ID = re.compile(r"<code>\[([A-Z][A-Z0-9]*(?:\.[0-9]+)?)\]</code>")


@cache
def rulebook_html() -> Markup:
    """The rules from the first section on: the book's title and its note to the app's
    developers are for them, not for players (the page has its own introduction)."""
    text = RULES_PATH.read_text(encoding="utf-8")
    start = text.find("\n## ")
    html = markdown.markdown(text[start + 1:] if start >= 0 else text)
    html = _RULE_ID.sub(lambda m: f'<a class="rule-id" id="{m[1]}" href="#{m[1]}">{m[1]}</a>',
                        html)
    return Markup(html)  # nosec B704: our own rule book, rendered by Markdown
