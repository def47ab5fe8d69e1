"""The rate limits of a match page that `repeat_views` answers before Flask, counted as
Flask counts them.

A route's limits (`limits.limit_reads` on the page of every hand, `limits.limit_joins` on
the viewer link) hold however its request is answered: a 304 or a kept page given before
Flask counts against the very budgets Flask's answer would, in the same storage and under
the same keys, so that a client alternating between the two ways is refused at the same
count.

Each route's limits are resolved once per app, by Flask-Limiter itself (its limit manager,
in a request context made from the route's first request), into a plan (`Counted`): each
limit's item and window as parsed, its scope, whom it counts (the client's address,
`limits.client_address`, or the code the link names, `limits.join_code`), its cost and
whether it counts on the check or only after the answer (`deduct_when`: `let_in`,
`missed`, decided once for each status given here). A request then costs what its keys
cost: the client's address from the environ (after ProxyFix, as `request.remote_addr`),
the code from the path, and the calls of the `limits` library's strategy
(`limiter.limiter`: `test`, `hit`) Flask-Limiter would make, with the same arguments. A
limit only tested on the check is tested first (no side effect), then the ones counted on
it are (several are tested together first, so that one spent does not leave the others
counted twice when Flask refuses); the deductions follow for the status about to be given.

A limit already spent leaves the request to Flask, which refuses it (its 429, in the
reader's language, with Retry-After) and checks again: a spent limit gains nothing by that
(a fixed window's counter, already past its amount, is raised twice by a request refused
after a hit here: its reset stays where its first hit put it; a moving window does not
count a refused request at all).
Anything the plan does not know how to count exactly as Flask would (another key, scope,
exemption or deduction, limits by method, meta or default or application limits, a custom
request identifier, a query string on a link whose key may read it, a path not in ASCII)
and a storage Flask-Limiter found dead are counted the slow way: by Flask-Limiter in a
request context made from the request (`checked`), as before. Only when the limiter is on
and the route carries a limit is any of this done (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from flask import Flask, Response, request
from flask.ctx import RequestContext
from flask.sessions import SecureCookieSession
from flask_limiter import RateLimitExceeded
from flask_limiter.util import get_qualified_name
from limits import RateLimitItem

from ..limits import (
    client_address,
    code_key,
    counted,
    join_code,
    let_in,
    limiter,
    missed,
    no_join_code,
)

log = logging.getLogger(__name__)

ANSWERED = (200, 304)  # the statuses given before Flask
KEYS = {client_address: False, join_code: True}  # key function: keyed by the link's code
DEDUCTIONS = (missed, let_in)  # deduct_when functions that read only the status


class Counted(NamedTuple):
    """One limit of a route as Flask-Limiter counts it (`__evaluate_limits`)."""

    item: RateLimitItem  # the amount and window, parsed
    scope: str
    by_code: bool  # keyed by the code the link names (`join_code`), else by the address
    deducted: frozenset[int] | None  # None: counted on the check; else the statuses
    # (of `ANSWERED`) after which it is counted, it being only tested on the check
    cost: int


Plan = tuple[Counted, ...]


class EarlyLimits:
    """The limits of the routes `repeat_views` answers (its endpoints), for one app."""

    def __init__(self, app: Flask, endpoints: list[str]) -> None:
        self.app = app
        # the name Flask-Limiter knows each view's decorated limits by (`limiter.limit`)
        self.names = {endpoint: get_qualified_name(app.view_functions[endpoint])
                      for endpoint in endpoints if endpoint in app.view_functions}
        self.plans: dict[str, Plan | None] = {}  # None: counted the slow way (`checked`)

    def limited(self, endpoint: str) -> bool:
        """Does a request to `endpoint` count against any limit now?"""
        name = self.names.get(endpoint)
        return bool(limiter.enabled and limiter.initialized
                    and name in limiter._marked_for_limiting)  # (a decorated view)

    def within(self, environ: dict[str, Any], endpoint: str, status: int,
               code: str | None = None) -> bool:
        """Count this request, about to be answered `status` before Flask, against the
        limits of `endpoint` as Flask would (`code`: the viewer link's, as its path has
        it); False when one is spent (or cannot be counted, or limits would add headers to
        the answer): Flask must answer it."""
        if not self.limited(endpoint):
            return True
        if self.app.config.get("RATELIMIT_HEADERS_ENABLED"):
            return False  # (the answer would carry the counts: Flask's to give)
        if endpoint not in self.plans:
            self.plans[endpoint] = self.resolve(environ, endpoint)
        plan = self.plans[endpoint]
        if plan is None or limiter._storage_dead:  # (Flask-Limiter then counts in memory)
            return self.checked(environ, endpoint, status)
        if any(c.by_code for c in plan) and (code is None or environ.get("QUERY_STRING")
                                             or not environ.get("PATH_INFO", "").isascii()):
            return self.checked(environ, endpoint, status)  # (a key the query may name)
        address = counted(environ.get("REMOTE_ADDR") or "")
        link = code_key("", code or "") if code is not None else ""
        prefix = limiter._key_prefix
        work: list[tuple[Counted, tuple[str, ...]]] = []
        for limit in plan:
            key = link if limit.by_code else address
            if key:  # (no code: exempt, `no_join_code`)
                work.append((limit, (prefix, key, limit.scope) if prefix else (key, limit.scope)))
        return self.count(work, status)

    @staticmethod
    def count(work: list[tuple[Counted, tuple[str, ...]]], status: int) -> bool:
        """The strategy's calls Flask-Limiter makes for these limits and keys, then the
        deductions after an answer `status`; False when one is spent or the storage fails
        (Flask then counts, and meets the failure its way)."""
        strategy = limiter.limiter
        counted_now = [(limit, args) for limit, args in work if limit.deducted is None]
        tested = work if len(counted_now) > 1 else [w for w in work if w[0].deducted is not None]
        try:
            for limit, args in tested:
                if not strategy.test(limit.item, *args, cost=limit.cost):
                    return False
            for limit, args in counted_now:
                if not strategy.hit(limit.item, *args, cost=limit.cost):
                    return False
        except Exception:  # noqa: BLE001
            log.warning("Early answer's limits not counted", exc_info=True)
            return False
        for limit, args in work:
            if limit.deducted is not None and status in limit.deducted:
                try:
                    strategy.hit(limit.item, *args, cost=limit.cost)
                except Exception:  # noqa: BLE001
                    log.exception("Failed to deduct rate limit before Flask")
                    if not limiter._swallow_errors:
                        return False
        return True

    def resolve(self, environ: dict[str, Any], endpoint: str) -> Plan | None:
        """The limits of `endpoint` as Flask-Limiter resolves them for this request (the
        route's first), as a plan; None when one is not counted the way a plan knows."""
        context = RequestContext(self.app, environ, session=SecureCookieSession())
        context.push()
        try:
            return self._resolve(endpoint)
        except Exception:  # noqa: BLE001
            log.warning("Early answer's limits not resolved", exc_info=True)
            return None
        finally:
            context.pop()

    def _resolve(self, endpoint: str) -> Plan | None:
        manager = limiter.limit_manager
        name, blueprint = self.names[endpoint], request.blueprint
        before, _ = manager.resolve_limits(self.app, endpoint, blueprint, name, True, True)
        defaults, decorated = manager.resolve_limits(self.app, endpoint, blueprint, name,
                                                     False, True)
        if (before or defaults or manager.application_limits or manager.default_limits
                or limiter._meta_limits or limiter._request_filters
                or self.app.config.get("RATELIMIT_REQUEST_IDENTIFIER")):
            return None
        plan = []
        for limit in sorted(decorated, key=lambda lim: lim.limit):
            by_code = KEYS.get(limit.key_func)
            if (by_code is None or limit.per_method or limit.methods or limit.meta_limits
                    or not isinstance(limit.cost, int) or callable(limit.scope)
                    or limit.exempt_when not in (None, no_join_code)
                    or (limit.exempt_when is no_join_code and not by_code)):
                return None
            deducted = None
            if limit.deduct_when is not None:
                if limit.deduct_when not in DEDUCTIONS:
                    return None
                deducted = frozenset(s for s in ANSWERED
                                     if limit.deduct_when(Response(status=s)))
            plan.append(Counted(limit.limit, limit.scope_for(endpoint, None), by_code,
                                deducted, limit.cost))
        return tuple(plan)

    def checked(self, environ: dict[str, Any], endpoint: str, status: int) -> bool:
        """`within` the slow way: Flask-Limiter's own check in a request context made from
        the request (its client address, its route and arguments; no session is opened),
        then the deductions that follow the answer."""
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
