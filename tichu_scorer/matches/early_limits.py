"""The rate limits of a match page that `repeat_views` answers before Flask, counted as
Flask counts them.

A route's limits (`limits.limit_reads` on the page of every hand, `limits.limit_joins` on
the viewer link) hold however its request is answered: a 304 or a kept page given before
Flask counts against the very budgets Flask's answer would, in the same storage and under
the same keys, so that a client alternating between the two ways is refused at the same
count. Flask-Limiter itself does the counting, in a request context made from the request
(its client address, its route and arguments; no session is opened): the check the view's
decorators make, then the deductions that depend on the answer (`let_in`, `missed`) for
the status about to be given. A limit already spent leaves the request to Flask, which
refuses it (its 429, in the reader's language, with Retry-After) and checks again: the
spent limit gains nothing by that, but a limit counted on the check before it would count
the request twice. None does here: the page of every hand has one limit, and the viewer
link's count only after the answer (`deduct_when`). Only when the limiter is on and the
route carries a limit is any of this done: with limits on it costs what Flask's check of
the same limits costs (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response
from flask.ctx import RequestContext
from flask.sessions import SecureCookieSession
from flask_limiter import RateLimitExceeded
from flask_limiter.util import get_qualified_name

from ..limits import limiter

log = logging.getLogger(__name__)


class EarlyLimits:
    """The limits of the routes `repeat_views` answers (its endpoints), for one app."""

    def __init__(self, app: Flask, endpoints: list[str]) -> None:
        self.app = app
        # the name Flask-Limiter knows each view's decorated limits by (`limiter.limit`)
        self.names = {endpoint: get_qualified_name(app.view_functions[endpoint])
                      for endpoint in endpoints if endpoint in app.view_functions}

    def limited(self, endpoint: str) -> bool:
        """Does a request to `endpoint` count against any limit now?"""
        name = self.names.get(endpoint)
        return bool(limiter.enabled and limiter.initialized
                    and name in limiter._marked_for_limiting)  # (a decorated view)

    def within(self, environ: dict[str, Any], endpoint: str, status: int) -> bool:
        """Count this request, about to be answered `status` before Flask, against the
        limits of `endpoint` as Flask would; False when one is spent (or cannot be counted,
        or limits would add headers to the answer): Flask must answer it."""
        if not self.limited(endpoint):
            return True
        if self.app.config.get("RATELIMIT_HEADERS_ENABLED"):
            return False  # (the answer would carry the counts: Flask's to give)
        context = RequestContext(self.app, environ, session=SecureCookieSession())
        context.push()
        try:
            if limiter.limit_manager._application_limits:  # (none is configured)
                limiter._check_request_limit()  # Flask's before_request: the app's limits
            limiter._check_request_limit(in_middleware=False,
                                         callable_name=self.names[endpoint])
        except RateLimitExceeded:
            context.pop()
            return False
        except Exception:  # noqa: BLE001  # (with errors not swallowed): Flask's to answer
            context.pop()
            log.warning("Early answer's limits not checked", exc_info=True)
            return False
        try:
            return self.deduct(Response(status=status))
        finally:
            context.pop()

    @staticmethod
    def deduct(answer: Response) -> bool:
        """The deductions that follow the answer (Flask-Limiter's after the response): a
        storage failing here is logged and the answer given, as there, when errors are
        swallowed (RATELIMIT_SWALLOW_ERRORS); else Flask answers."""
        for limit, args in limiter.context.conditional_deductions.items():
            if limit.deduct_when and limit.deduct_when(answer):
                try:
                    limiter.limiter.hit(limit.limit, *args, cost=limit.deduction_amount)
                except Exception:  # noqa: BLE001
                    log.exception("Failed to deduct rate limit before Flask")
                    if not limiter._swallow_errors:
                        return False
        return True
