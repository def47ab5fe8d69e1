"""Languages: English and German, from the browser's Accept-Language or the switch."""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.support import NullTranslations, Translations
from flask import Flask, g, request
from flask_babel import get_locale, get_translations
from werkzeug.datastructures import LanguageAccept
from wtforms.i18n import messages_path

from .game.house import named_rules

LANGUAGES = {"en": "English", "de": "Deutsch"}
COOKIE = "lang"


def select_locale() -> str:
    """The language chosen with the switch, else the browser's best match, else English."""
    return locale_for(request.cookies.get(COOKIE), request.accept_languages)


def locale_for(chosen: str | None, accepted: LanguageAccept) -> str:
    """`select_locale` from the switch's cookie and the parsed Accept-Language, for a
    request answered before Flask (`matches.repeat_views`) as for one in it."""
    if chosen in LANGUAGES:
        return chosen
    return accepted.best_match(list(LANGUAGES)) or "en"


def translations() -> NullTranslations:
    """Flask-Babel's translations for this request, looked up once per request and locale:
    Flask-Babel looks up the context, the domain and the locale again for each message (a
    match page has about forty). A locale forced for a while (`force_locale`) is another
    locale object, so its messages are never answered from the request's translations."""
    state = g.get("_flask_babel") if g else None
    kept = getattr(state, "tichu_translations", None)
    if kept is not None and kept[0] is getattr(state, "babel_locale", None):
        found: NullTranslations = kept[1]
        return found
    found = get_translations()
    state = g.get("_flask_babel") if g else None  # made by the look-up
    if state is not None and getattr(state, "babel_locale", None) is not None:
        state.tichu_translations = (state.babel_locale, found)
    return found


def gettext(string: str, **variables: Any) -> str:
    """`flask_babel.gettext`, through `translations`."""
    text: str = translations().ugettext(string)
    return text % variables if variables else text


def plural(singular: str, plural_: str, n: int) -> str:
    """The plural form for `n`, not yet filled in (the core's `ngettext`)."""
    text: str = translations().ngettext(singular, plural_, n)
    return text


def possessive(name: str) -> str:
    """`name` as the owner of something, in this request's language: "Ann's" in English;
    in German "Anns", or "Hans’" for a name ending in s, ß, x or z."""
    if str(get_locale()) == "de":
        return name + ("’" if name[-1:].lower() in ("s", "ß", "x", "z") else "s")
    return name + "'s"


def house_rules_of(match: Any) -> list[tuple[str, str]]:
    """[R1]: the house rules a match plays by, as (rule id, words in this request's
    language); none for the rule book."""
    return [(rule, gettext(message, **values))
            for rule, message, values in named_rules(match.house, match.lead_by)]


@cache
def _wtforms(locale: str) -> NullTranslations:
    return Translations.load(messages_path(), [locale], domain="wtforms")


def wtforms_translations() -> NullTranslations:
    """WTForms' own messages in this request's language, each catalogue read once per
    process (its files do not change while the app runs)."""
    return _wtforms(str(get_locale()))


def install(app: Flask) -> None:
    """The templates' `_`, `gettext` and `ngettext` through `translations` (after
    Flask-Babel installed its own)."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True)
