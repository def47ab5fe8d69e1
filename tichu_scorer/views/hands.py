"""Hands: entering one hand of a match with a live preview; editing, deleting, restoring."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..core import answers, follow
from ..extensions import csrf, db
from ..game.layouts import TEAM_LETTERS
from ..game.variants import MOST_BOMBS
from ..limits import limit_reads, limit_writes
from ..matches import closing, corrections, ending, hand_entry, match_log, match_view, writes
from ..matches.following import told_of
from ..models import CLIENT_ID, Hand, Match
from ..scoring import seigneur
from ..scoring.hand import CARD_POINTS_MAX, CARD_POINTS_MIN, CARD_POINTS_STEP
from ..tables import access
from . import follow as follow_view
from . import game_pages
from .errors import form_value, wants_json
from .jsonbody import json_body
from .matches import page_showing, visible

bp = Blueprint("hands", __name__)


@bp.errorhandler(closing.Closed)
def _closed(exc: closing.Closed) -> tuple[str, int] | tuple[Response, int]:
    """[TN5]: a table of a closed tournament round takes no change of its hands, whichever
    write asked (new, delete, undo, restore; an edit shows it on its form): 422 with the
    rule, as JSON for a script (the outbox keeps the hand with the reason) or a page."""
    db.session.rollback()
    problem = exc.problem
    if wants_json():
        return jsonify(errors=[problem.as_dict() | {"group": "match"}]), 422
    match_id = (request.view_args or {}).get("match_id", "")
    return render_template("errors/error.html", code=422, back=url_for(
        "matches.show", match_id=match_id), message=f"{problem.message} ({problem.rule})"), 422


def _form_int(name: str) -> int:
    """A whole number the page put in a hidden field (a version, a hand number): a missing
    or malformed one is refused, never taken as "no check"."""
    raw = form_value(name)
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        abort(400, gettext("The form field “%(field)s” is missing or not a whole number, so "
                           "the change cannot be checked against other phones. Reload the "
                           "page and enter it again; nothing was saved.", field=name))
    return int(raw)


def _entry() -> int | None:
    """The entry number the new-hand form was opened for (`hand_entry.add_hand`); None for a
    form without one, queued on a phone before forms carried it."""
    return _form_int("entry") if "entry" in request.form else None


def _client_id() -> str | None:
    raw = form_value("client_id")
    if not raw:
        return None
    if not CLIENT_ID.fullmatch(raw):
        abort(400, gettext("The form field “client_id” must be 1–64 letters, digits, - or _; "
                           "nothing was saved."))
    return raw


def _held(match_id: str) -> Match:
    """The match, held for a change (`writes.lock_match`), if this phone may score it."""
    match = access.require_view(writes.lock_match(match_id))
    access.require_scorer(match)
    return match


# [P1] what a team's card points may be: the hand form's limits, sent to the page as data
CARD_POINTS = {"min": CARD_POINTS_MIN, "max": CARD_POINTS_MAX, "step": CARD_POINTS_STEP}


def _form(match: Match, hand: Hand | None = None, ahead: int = 0) -> Any:
    seats = len(match.seats)
    cls = game_pages.pages_of(match).form_class(seats)
    form = cls(names=match.names, calls=match.house.custom_calls)
    if hand is not None and not form.is_submitted():
        form.fill(hand.recorded())
    elif not form.is_submitted() and not match.finished and not ahead:
        followed = follow_view.in_play_of(match)  # [L6]: the hand in play fills the form
        if followed.state.followed:
            form.fill(follow.recorded(followed.table, followed.state))
    return form


def _plain(match: Match) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The new hand the form's fields send, read without building the form when every value
    is as the form would take it (`HandFormBase.plain`); None otherwise, and for fields the
    form reads from elsewhere (files, a JSON body: Flask-WTF's `wrap_formdata`)."""
    if request.files or not request.form:
        return None
    form_class = game_pages.pages_of(match).form_class(len(match.seats))
    found: tuple[dict[str, Any], dict[str, Any]] | None = form_class.plain(
        request.form, match.names, match.house.custom_calls)
    return found


def _validated(match: Match) -> Any:
    """The form of a hand read plain (`_plain`), for the page that refuses it: valid, as the
    form found it."""
    form = _form(match)
    form.validate()
    return form


def _hand(match: Match, number: int) -> Hand:
    hand = next((h for h in match.all_hands if h.number == number), None)
    if hand is None:
        abort(404)
    return hand


def _page(match: Match, form: Any, status: int, hand: Hand | None = None,
          conflict: writes.Conflict | None = None, number: int | None = None, ahead: int = 0
          ) -> tuple[str, int]:
    shuffler = hand.shuffler if hand is not None else hand_entry.next_shuffler(match, ahead)
    shown = writes.position(match, hand) if hand is not None else match.hand_count + 1 + ahead
    template = game_pages.pages_of(match).hand_template
    titles = match.game.titles(len(match.seats))
    layout = hand_entry.layout_for(match, shuffler)
    theirs, yours, summaries = (corrections.conflict_versions(
        match, form.to_api(), hand, conflict) if conflict is not None else ("", None, []))
    opened_for = number if number is not None else shown
    body = render_template(template, form=form, match=match, number=shown, titles=titles,
                           back=page_showing(match, shown) if hand is not None else url_for(
                               "matches.show", match_id=match.key),
                           layout=layout, editing=hand,
                           sides=match_view.sides_of(match), shuffler=shuffler,
                           conflict=conflict, teams=TEAM_LETTERS, points=CARD_POINTS,
                           most_bombs=MOST_BOMBS, taps=seigneur.places_to_tap(len(match.seats)),
                           told=[] if ahead else follow_view.told_of(match, hand),
                           conflict_theirs=theirs,
                           conflict_yours=yours, summaries=summaries,
                           opened_for=opened_for, in_tab=_saved_in_tab(summaries, opened_for),
                           entry=_opened_entry(match, hand, conflict, ahead),
                           version=(hand.version if hand is not None and conflict is None
                                    else request.form.get("version")))
    db.session.rollback()  # a refused change holds nothing while the page goes out
    return body, status


def _saved_in_tab(summaries: list[tuple[int, str]], opened_for: int) -> bool:
    """Whether the one hand saved meanwhile is the form's own number, which its page heard
    was saved in another tab of this phone (live.js names it in the `tab` field): the
    conflict then says so, not "another phone". Words only: the choice is the same."""
    return ([place for place, _summary in summaries] == [opened_for]
            and request.form.get("tab") == str(opened_for))


def _opened_entry(match: Match, hand: Hand | None, conflict: writes.Conflict | None,
                  ahead: int = 0) -> int | str | None:
    """The entry number a new-hand form carries: the next one now for a form opened now or
    after a conflict (its "Save mine as hand N" saves as the next hand), else the one it
    was sent with (a refused hand, corrected, is still the hand it was)."""
    if hand is not None:
        return None
    if isinstance(conflict, writes.Stale):
        return conflict.entry
    if request.method == "POST" and "entry" in request.form:
        return request.form["entry"]
    return hand_entry.next_entry(match) + ahead  # (a form for a hand after the next)


def _refusal(match: Match, form: Any, status: int, conflict: writes.Conflict | None = None,
             number: int | None = None) -> tuple[str, int] | tuple[Response, int]:
    """A new hand that was not stored: the form again with its problems (or the conflict),
    or, for a script that asked for JSON, each problem with its field group."""
    if not wants_json():
        if match.finished:
            return _over(match, status)
        return _page(match, form, status, conflict=conflict, number=number)
    db.session.rollback()
    errors = [p.as_dict() | {"group": group}
              for group, problems in form.problems.items() for p in problems]
    if conflict is not None:
        return jsonify(conflict=True, current=conflict.current, errors=errors), status
    return jsonify(errors=errors), status


def _over(match: Match, status: int) -> tuple[str, int]:
    """A finished match takes no new hand [E1]: what may be done instead, not the form."""
    body = render_template("matches/over.html", match=match, sides=match_view.sides_of(match),
                           refused=request.method == "POST")
    db.session.rollback()
    return body, status


@bp.route("/matches/<match_id>/hands/new", methods=["GET", "POST"])
@limit_writes
def new(match_id: str) -> Response | tuple[str, int] | tuple[Response, int]:
    """Calls, out-order, card points and wish penalty on one screen. The form carries the
    hand number it was opened for: a hand another phone saved meanwhile is not doubled."""
    if request.method == "GET":
        match = visible(match_id)
        access.require_scorer(match)
        closing.check(match, hold=False)  # [TN5]: no form to fill in for nothing
        ahead = hand_entry.ahead_of(match, request.args.get("number"))  # Threechu's next
        return _over(match, 200) if match.finished else _page(
            match, _form(match, ahead=ahead), 200, ahead=ahead)
    # the hand of the client id sent (validated below, before it is used) read with the lock
    held, client_hand = writes.lock_match_for_client(match_id, request.form.get(
        "client_id", ""))
    match = access.require_view(held)
    access.require_scorer(match)
    entered, form = _plain(match), None
    number, entry, client_id = _form_int("number"), _entry(), _client_id()
    if entered is None:  # the form reads it, and says what is wrong
        form = _form(match)
        if not form.validate():
            return _refusal(match, form, 422, number=number)
        entered = form.to_api(), form.extras()
    try:
        hand, problems, shown = hand_entry.add_hand(match, entered[0], number, client_id,
                                                 entry, entered[1], client_hand)
    except writes.Conflict as exc:
        if not isinstance(exc, writes.Stale) and not wants_json():
            # the client id names a hand of another match: a phone's id used twice
            return _refused(match, gettext(
                "This hand carries the id of a hand saved in another match, so it was not "
                "saved. Enter it again from this match's page."))
        return _refusal(match, form or _validated(match), 409, conflict=exc, number=number)
    if hand is None:
        form = form or _validated(match)
        form.attach(problems)
        return _refusal(match, form, 422, number=number)
    # nothing read after the commit: it would read the match and its hands again
    if shown:
        flash(gettext("Hand %(n)s saved.", n=shown))
    else:  # the same hand sent again after it was undone or deleted: not brought back
        flash(gettext("That hand was saved before and later taken back; it was not saved "
                      "again. The match log can restore it."))
    return redirect(url_for("matches.show", match_id=match_id), code=303)


@bp.route("/matches/<match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@limit_writes
def edit(match_id: str, number: int) -> Response | tuple[str, int]:
    """Change what was recorded for an earlier hand. The form carries the version it was
    opened on; after a conflict only an explicit "save mine over theirs" names the new one."""
    if request.method == "GET":
        match = visible(match_id)
        access.require_scorer(match)
        closing.check(match, hold=False)  # [TN5]
    else:
        match = _held(match_id)
    hand = _hand(match, number)
    if hand.deleted_at is not None:
        if request.method == "GET":
            abort(404)
        return _refused(match, gettext("Another phone deleted this hand meanwhile; your "
                                       "change was not saved. It can be restored from the "
                                       "log."))
    form = _form(match, hand)
    if not form.is_submitted():
        return _page(match, form, 200, hand)
    version = _form_int("overwrite" if "overwrite" in request.form else "version")
    if not form.validate():
        return _page(match, form, 422, hand)
    try:
        problems = corrections.edit_hand(match, hand, form.to_api(), version, form.extras())
    except writes.Conflict as exc:
        return _conflict(match, form, hand, exc)
    if problems:
        form.attach(problems)
        return _page(match, form, 422, hand)
    shown = writes.position(match, hand)
    flash(gettext("Hand %(n)s updated.", n=shown))
    return redirect(page_showing(match, shown), code=303)


def _conflict(match: Match, form: Any, hand: Hand,
              exc: writes.Conflict) -> Response | tuple[str, int]:
    if exc.hand is None:  # deleted by another phone meanwhile
        return _refused(match, gettext("Another phone deleted this hand meanwhile; your "
                                       "change was not saved. It can be restored from the "
                                       "log."))
    return _page(match, form, 409, hand, conflict=exc)


def _refused(match: Match, message: str, position: int | None = None,
             code: int = 409) -> tuple[str, int]:
    """409: another phone's change came first (422: the change would leave a record that
    cannot be); nothing was changed by this request. Its way back is the page that shows
    the hand at `position`, if it is known."""
    db.session.rollback()
    back = page_showing(match, position) if position else url_for("matches.show",
                                                                   match_id=match.key)
    return render_template("errors/error.html", code=code, message=message, back=back), code


def _after_the_end(match: Match, exc: ending.AfterTheEnd,
                   position: int | None = None) -> tuple[str, int]:
    return _refused(match, f"{exc.problem.message} ({exc.problem.rule})", position, 422)


@bp.post("/matches/<match_id>/hands/<int:number>/delete")
@limit_writes
def delete(match_id: str, number: int) -> Response | tuple[str, int]:
    match = _held(match_id)
    hand = _hand(match, number)
    shown = writes.position(match, hand)
    try:
        corrections.delete_hand(match, hand, _form_int("version"))
    except ending.AfterTheEnd as exc:
        return _after_the_end(match, exc, shown or None)
    except writes.Conflict as exc:
        return _refused(match, gettext(
            "Another phone changed hand %(n)s meanwhile, so it was not deleted. Check it and "
            "try again.", n=shown) if exc.hand is not None else gettext(
            "This hand was already deleted by another phone."), shown or None)
    flash(gettext("Hand %(n)s deleted.", n=shown), f"restore:{hand.number}")
    # where the hand was: at the hand before it (or after it, for the first)
    return redirect(page_showing(match, max(shown - 1, 1)), code=303)


@bp.post("/matches/<match_id>/hands/<int:number>/restore")
@limit_writes
def restore(match_id: str, number: int) -> Response | tuple[str, int]:
    match = _held(match_id)
    hand = _hand(match, number)
    from_log = form_value("from") == "log"
    try:
        restored = corrections.restore_hand(match, hand, moved_on_ok=from_log, revision=(
            _form_int("revision") if from_log else None))
    except ending.AfterTheEnd as exc:
        return _after_the_end(match, exc)
    except writes.Conflict:
        if from_log:
            return _refused(match, gettext(
                "The match has changed since the log was opened (another phone may have "
                "entered that hand again), so it was not restored. Open the log again and "
                "check before restoring it."))
        return _refused(match, gettext(
            "The match has changed since that hand was taken back (another phone may have "
            "saved it again), so it was not restored. The match log can still restore it."))
    if restored:
        flash(gettext("Hand restored."))
    else:
        flash(gettext("That hand is already back in play."))
    # back in play, the hand is on the page that shows its place (an older one of a long
    # match on the page of every hand, at its row)
    return redirect(page_showing(match, writes.position(match, hand)), code=303)


@bp.post("/matches/<match_id>/undo")
@limit_writes
def undo(match_id: str) -> Response | tuple[str, int]:
    """Undo the latest hand, the one the page showed (it can be restored from the log)."""
    match = _held(match_id)
    shown = len(match.hands)
    try:
        undone = corrections.undo_last(match, _form_int("number"))
    except writes.Conflict:
        return _refused(match, gettext("That hand was already undone, or another phone added "
                                       "a hand after it; nothing was undone."))
    flash(gettext("Hand %(n)s undone.", n=shown), f"restore:{undone.number}")
    return redirect(url_for("matches.show", match_id=match.key), code=303)


@bp.post("/matches/<match_id>/hands/preview")
@csrf.exempt
def preview(match_id: str) -> Response | tuple[Response, int]:
    """Score the hand being entered (or edited: ?edit=number) without saving it."""
    match = visible(match_id)
    body = json_body()
    if not request.args.get("edit"):  # the phone answers with the same call offline
        answer, status = answers.preview(hand_entry.stored_state(match), body)
        return jsonify(answer), status
    editing = _hand(match, request.args.get("edit", type=int) or 0)
    result, problems, _row = hand_entry.score(match, body, editing, correction=True)
    derived = hand_entry.derive(match, body, editing)
    layout = hand_entry.layout_for(match, editing.shuffler)
    answer, status = answers.preview_answer(
        result, problems, None if derived is None or layout is None else
        answers.derived_note(match.game, layout, derived, body, match.house))
    return jsonify(answer), status


@bp.get("/matches/<match_id>/log")
@limit_reads
def log(match_id: str) -> str:
    """The match's append-only log, a page at a time; deleted hands can be restored here."""
    match = visible(match_id)
    page = match_log.log_page(match, request.args.get("older"), request.args.get("newer"))
    followed = told_of(match, [page.hands[e.event.hand_id] for e in page.entries
                               if e.event.action == "added" and e.event.hand_id in page.hands])
    return render_template("hands/log.html", match=match, page=page, followed=followed,
                           can_score=access.can_score(match))
