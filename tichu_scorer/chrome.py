"""The parts of every page that vary only with its language: the head's links, the top bar,
the outbox's texts, the footer (`templates/_chrome/`). Rendered once per app process,
language, root URL and version of the static files, then reused: they cost about a fifth
of a page otherwise (fifteen `url_for` and a dozen translations on each), and a match
page answered from its kept body is little else. Where templates reload as they change
(development), they are rendered each time."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_babel import get_locale
from markupsafe import Markup

from .assets import assets

PARTS = ("meta", "head", "top", "foot")


def fragment(name: str) -> Markup:
    """`templates/_chrome/<name>.html` in this request's language."""
    kept: dict[tuple[str, ...], Markup] = current_app.extensions["tichu_chrome"]
    key = (name, str(get_locale()), request.script_root, assets().version)
    found = kept.get(key)
    if found is None:
        if name not in PARTS:
            raise KeyError(name)
        found = Markup(render_template(f"_chrome/{name}.html").strip())  # nosec B704: ours
        if not current_app.jinja_env.auto_reload:
            kept[key] = found
    return found


def init_app(app: Flask) -> None:
    app.extensions["tichu_chrome"] = {}
    app.jinja_env.globals["chrome"] = fragment
