"""Static pages: the rule book."""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from ..i18n import COOKIE, LANGUAGES

bp = Blueprint("pages", __name__)


@bp.get("/rules")
def rules() -> str:
    """The rule book with an anchor per rule id."""
    from ..rulebook import rulebook_html
    return render_template("pages/rules.html", body=rulebook_html())


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so that it may control every page."""
    response = send_from_directory(current_app.static_folder or "static", "js/sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return send_from_directory(current_app.static_folder or "static", "manifest.webmanifest",
                               mimetype="application/manifest+json", max_age=3600)


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
