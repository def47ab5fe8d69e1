"""The project's rule book (docs/RULES.md, in German docs/RULES.de.md) as HTML, each rule
id an anchor (`/rules#W2`) in either language."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from markupsafe import Markup

DOCS = Path(__file__).resolve().parent.parent / "docs"
RULES_PATH = DOCS / "RULES.md"
_RULE_ID = re.compile(r"<code>\[([A-Z][A-Z0-9]*(?:\.[0-9]+)?)\]</code>")


def book_language(language: str) -> str:
    """The language the rule book is read in: `language` where it has a translation
    (RULES.<language>.md), else English."""
    return language if language != "en" and rules_path(language).is_file() else "en"


def rules_path(language: str = "en") -> Path:
    """The rule book's file in `language`."""
    return RULES_PATH if language == "en" else DOCS / f"RULES.{language}.md"


@cache
def rulebook_html(language: str = "en") -> Markup:
    """The rules from the first section on: the book's title and its note to the app's
    developers are for them, not for players (the page has its own introduction)."""
    text = rules_path(language).read_text(encoding="utf-8")
    start = text.find("\n## ")
    html = markdown.markdown(text[start + 1:] if start >= 0 else text)
    html = _RULE_ID.sub(lambda m: f'<a class="rule-id" id="{m[1]}" href="#{m[1]}">{m[1]}</a>',
                        html)
    return Markup(html)  # nosec B704: our own rule book, rendered by Markdown
