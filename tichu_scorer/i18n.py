"""Languages: English and German, from the browser's Accept-Language or the switch."""

from __future__ import annotations

from flask import request

LANGUAGES = {"en": "English", "de": "Deutsch"}
COOKIE = "lang"


def select_locale() -> str:
    """The language chosen with the switch, else the browser's best match, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"
