"""The parts of every page that vary only with its language: the head's links, the top bar
with the language switch, the outbox's texts (`templates/_chrome/`); and the description,
which varies with the page as well. Rendered once per app process, language, page where it
matters, root URL and version of the static files, then reused: they cost about a fifth of
a page otherwise (fifteen `url_for` and a dozen translations on each), and a match page
answered from its kept body is little else. Where templates reload as they change
(development), they are rendered each time."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_babel import get_locale
from markupsafe import Markup

from .assets import assets

PARTS = ("meta", "head", "top", "description")


def fragment(name: str, page: str | None = None) -> Markup:
    """`templates/_chrome/<name>.html` in this request's language; `page` names the page
    (its endpoint) for a part that differs from one page to another."""
    kept: dict[tuple[str | None, ...], Markup] = current_app.extensions["tichu_chrome"]
    key = (name, page, str(get_locale()), request.script_root, assets().version)
    found = kept.get(key)
    if found is None:
        if name not in PARTS:
            raise KeyError(name)
        html = render_template(f"_chrome/{name}.html", page=page).strip()
        found = Markup(html)  # nosec B704: our own templates, autoescaped
        if not current_app.jinja_env.auto_reload:
            kept[key] = found
    return found


def init_app(app: Flask) -> None:
    app.extensions["tichu_chrome"] = {}
    app.jinja_env.globals["chrome"] = fragment
