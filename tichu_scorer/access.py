"""Who may change a match, without accounts: the phone that started it, and any phone that
opened its scorer link. Everyone else sees it read-only (enforced here, on the server)."""

from __future__ import annotations

from flask import abort, session
from flask_babel import gettext

from .models import Match

SESSION_KEY = "scorer_of"
REMEMBERED = 200  # matches a phone can score; the oldest are forgotten first


def grant(match: Match) -> None:
    """This phone may enter hands in `match` from now on."""
    ids = [i for i in session.get(SESSION_KEY, []) if i != match.id]
    session[SESSION_KEY] = (ids + [match.id])[-REMEMBERED:]


def can_score(match: Match) -> bool:
    return match.id in session.get(SESSION_KEY, [])


def require_scorer(match: Match) -> None:
    """403 for a viewer: the change is refused whatever the page showed."""
    if not can_score(match):
        abort(403, gettext("This phone can only view this match. Ask the scorer for the scorer "
                           "link (Share on the match page) to enter hands."))
