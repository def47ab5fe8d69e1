"""Error pages: JSON under /api, HTML elsewhere; never a bare 500 for bad input."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from .jsonbody import BadRequest


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(BadRequest)
    def bad_request(exc: BadRequest) -> tuple[Response, int]:
        return jsonify(error=exc.message, field=exc.field), 400

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[Response | str, int]:
        message = gettext("The form expired or came from elsewhere (CSRF check failed). Go "
                          "back, reload the page and submit again; nothing was saved.")
        if _wants_json():
            return jsonify(error=message, field="csrf_token"), 400
        return render_template("errors/error.html", code=400, message=message), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[Response | str, int]:
        code = exc.code or 500
        message = exc.description or exc.name
        if _wants_json():
            return jsonify(error=exc.name + ": " + message, field="request"), code
        return render_template("errors/error.html", code=code, message=message), code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response | str, int]:
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        message = gettext("Something went wrong on our side; nothing was saved. Please try "
                          "again.")
        if _wants_json():
            return jsonify(error=message, field="server"), 500
        return render_template("errors/error.html", code=500, message=message), 500
