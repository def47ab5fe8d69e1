"""Pages of their own: the rule book, export and import, the offline page, the language
switch; the service worker and the manifest."""

from __future__ import annotations

import json
from pathlib import Path

from flask import (
    Blueprint,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from ..assets import assets, cache_control
from ..forms import PhoneForm
from ..i18n import COOKIE, LANGUAGES, possessive
from ..tables import access, phones
from . import core

bp = Blueprint("pages", __name__)
SW_MAX_AGE = 600  # seconds a phone may go on with the service worker it has
SW_PAGES_KEPT = 100  # page copies a phone keeps (the copy used longest ago goes first)
SW_VERDICTS_KEPT = 20  # referee pages with their question in the URL, kept likewise


@bp.get("/rules")
def rules() -> str:
    """The rule book in the reader's language, with an anchor per rule id."""
    from ..rulebook import book_language, rulebook_html
    language = book_language(str(get_locale()))
    return render_template("pages/rules.html", body=rulebook_html(language),
                           book_language=language)


@bp.get("/import")
def transfer() -> str:
    """Export and import on a page of their own: a newcomer's home page only links to it."""
    return render_template("pages/transfer.html", groups=access.groups())


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so that it may control every page. Its first
    lines name this deploy's version (a hash over every static file), the hashed URLs to
    keep and the bounds on page copies: a deploy changes the script, so phones install it
    and replace their caches."""
    found = assets()
    script = (Path(current_app.static_folder or "static") / "js" / "sw.js").read_text()
    build = {"version": "tichu-" + found.version,
             "assets": [url_for("static", filename=name) for name in found.precached()]
             + [url_for("pages.manifest"), url_for("pages.offline")],
             "pagesKept": SW_PAGES_KEPT, "verdictsKept": SW_VERDICTS_KEPT,
             "core": core.kept_urls()}
    response = Response(f"const BUILD = {json.dumps(build)};\n{script}",
                        mimetype="text/javascript")
    # The browser looks for a new worker after every page it opens; offline.js lets it take
    # this answer from its HTTP cache for a while (updateViaCache "all"), so that a repeat
    # view is one request. A deploy reaches a phone within SW_MAX_AGE; meanwhile its pages
    # still name the new files by their hashes, which the older worker fetches and keeps.
    response.headers["Cache-Control"] = f"max-age={SW_MAX_AGE}"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The manifest, its icons under their hashed URLs; itself linked with its hash."""
    path = Path(current_app.static_folder or "static") / "manifest.webmanifest"
    data = json.loads(path.read_text())
    for icon in data.get("icons", []):
        if icon.get("src", "").startswith("/static/"):
            icon["src"] = url_for("static", filename=icon["src"][len("/static/"):])
    response = Response(json.dumps(data, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = cache_control(request.args.get("v") == assets().version)
    return response


@bp.get("/offline")
def offline() -> str:
    """Shown by the service worker for a page never visited while online."""
    return render_template("pages/offline.html")


@bp.get("/csrf-token")
def csrf_token() -> Response:
    """A fresh CSRF token for this session: hands saved offline are replayed with it."""
    response = jsonify(csrf_token=generate_csrf())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/phone", methods=["GET", "POST"])
def phone() -> Response | str | tuple[str, int]:
    """Name this phone (`tables/phones.py`): the other phones' live note and the match log say
    on whose phone a hand was saved. Then back to the page it was opened from."""
    back = request.args.get("next", "")
    # (a browser drops tabs and line breaks from a URL: "/\t/evil" would be "//evil")
    if not (back.startswith("/") and not back.startswith("//") and "\\" not in back
            and back.isprintable()):
        back = ""
    form = PhoneForm(data={"name": phones.name() or ""})
    if request.method == "POST":
        if form.validate():
            name = phones.clean(form.name.data)
            flash(gettext("This phone is now %(owner)s phone.", owner=possessive(name))
                  if name else gettext("This phone has no name now."))
            response = redirect(back or url_for("matches.history"), code=303)
            phones.remember(response, name)
            return response
        return render_template("pages/phone.html", form=form, back=back), 422
    return render_template("pages/phone.html", form=form, back=back)


@bp.get("/lang/<code>")
def language(code: str) -> Response:
    """The language switch: remembered in a cookie, then back to the page it was used on."""
    back = request.referrer or ""
    if not back.startswith(request.host_url):
        back = url_for("matches.history")
    response = redirect(back, code=303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=3600 * 24 * 365, samesite="Lax",
                            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response
