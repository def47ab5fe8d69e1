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
    html = markdown.markdown(RULES_PATH.read_text(encoding="utf-8"))
    html = _RULE_ID.sub(lambda m: f'<a class="rule-id" id="{m[1]}" href="#{m[1]}">{m[1]}</a>',
                        html)
    return Markup(html)  # nosec B704: our own rule book, rendered by Markdown
