"""An imported log cannot break the log page, the log page shows a page of entries at a time,
and an import is bounded: log entries naming seats that do not exist are refused (all or
nothing, 422 naming the entry and the field); an entry stored anyhow is shown as unreadable,
never a 500; every limit of an import is refused just beyond it and taken right at it."""

import html
import json
import re

import pytest

from tests.test_queries import queries_for
from tests.views.test_transfer import long_match, synthetic_history, upload
from tichu_scorer.extensions import db
from tichu_scorer.matches import match_log
from tichu_scorer.models import HandEvent, Match
from tichu_scorer.transfer import checks

EDIT = {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, 50],
        "wish_penalty": {"offender": 2}}


def one_match(log):
    """A one-match export (Nanking, four seats, three hands) with this log."""
    data = synthetic_history(matches=1, hands=3)
    data["matches"][0]["log"] = log
    return data


def edited(before=None, after=None, **fields):
    return {"hand_number": 1, "position": 1, "action": "edited", "summary": "",
            "before": EDIT | (before or {}), "after": EDIT | (after or {})} | fields


def text_of(response):
    return html.unescape(response.get_data(as_text=True))


def stored(app):
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Match.id)))


@pytest.mark.parametrize("entry, field", [
    # every entry the log cannot read: tests/transfer/test_checks.py
    (edited(after={"calls": {"7": "tichu"}}), "after.calls"),
])
def test_a_log_entry_the_log_cannot_read_is_refused_naming_entry_and_field(
        app, client, entry, field):
    good = edited()
    r = upload(client, json.dumps(one_match([good, good, entry])).encode())
    page = text_of(r)
    assert r.status_code == 422, page[-600:]
    assert f"match 1, log entry 3: {field} must " in page, page[-900:]
    assert stored(app) == 0  # all or nothing


def test_sound_log_entries_of_every_kind_are_imported_and_said_in_words(app, client):
    log = [edited(after={"out_order": [1, 0], "calls": {"3": "grand"}, "wish_penalty": None,
                         "counted_points": [40, 60]}),
           {"action": "deleted", "position": 2, "hand_number": 2, "before": EDIT},
           {"action": "settings", "position": 0, "before": {"target": 1000,
                                                              "names": ["Ann", "B", "C", "D"]},
            "after": {"target": 1500, "names": ["Ann", "Bo", "C", "D"]}}]
    assert upload(client, json.dumps(one_match(log)).encode()).status_code == 303
    with app.app_context():
        key = db.session.execute(db.select(Match.key)).scalar_one()
    page = text_of(client.get(f"/matches/{key}/log"))
    assert "cannot be read" not in page
    assert "P0-3 ünï's call no call → Grand Tichu" in page and "target 1000 → 1500" in page


# What a log entry may hold when it was stored by an older version, by hand or anyhow: the
# log page must still open (the entry shown as unreadable). Every such entry:
# tests/matches/test_match_log.py.
@pytest.mark.parametrize("action, before, after", [
    ("edited", {"calls": {"0": "blind"}}, {"calls": {}}),
])
def test_the_log_page_shows_an_entry_it_cannot_read_instead_of_failing(
        app, client, action, before, after):
    assert upload(client, json.dumps(one_match([edited()])).encode()).status_code == 303
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        key = match.key
        db.session.add(HandEvent(match_id=match.id, position=1, action=action, summary="",
                                 before=before, after=after))
        db.session.commit()
    for _visit in range(2):
        r = client.get(f"/matches/{key}/log")
        page = text_of(r)
        assert r.status_code == 200, page[-600:]
        assert page.count("this entry cannot be read") == 1
        assert page.count('class="log-') == 2  # the sound entry is still shown
    german = client.get(f"/matches/{key}/log", headers={"Accept-Language": "de"})
    assert german.status_code == 200 and "nicht gelesen" in text_of(german)


# --- the log page, a page at a time -----------------------------------------------------

def match_with_log(app, client, entries):
    """A match whose log holds `entries` entries ("entry 1", …); its key."""
    data = one_match([{"action": "added", "position": 1, "hand_number": 1,
                       "summary": f"entry {n}"} for n in range(1, entries + 1)])
    # a match of its own (the same match again, another log, would be already here)
    data["matches"][0]["started_at"] = f"2024-01-01T20:00:00.{entries:06d}"
    assert upload(client, json.dumps(data).encode()).status_code == 303
    with app.app_context():
        return db.session.execute(db.select(Match.key).order_by(Match.id.desc())).scalars(
            ).first()


def numbers_shown(page):
    """The entries a log page shows, as numbered from the oldest (1)."""
    start = re.search(r'<ol class="log" reversed start="(\d+)">', page)
    return list(range(int(start.group(1)), int(start.group(1)) - page.count(
        'class="log-'), -1)) if start else []


def link(page, rel):
    found = re.search(rf'rel="{rel}" href="([^"]+)"', page)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_log_shows_a_page_of_entries_and_links_older_and_newer(app, client):
    size = match_log.PAGE_SIZE
    key = match_with_log(app, client, 2 * size + 50)
    first = client.get(f"/matches/{key}/log").get_data(as_text=True)
    assert numbers_shown(first) == list(range(2 * size + 50, size + 50, -1))
    assert link(first, "prev") is None
    pages, url = [], f"/matches/{key}/log"
    while url:
        page = client.get(url).get_data(as_text=True)
        pages.append(numbers_shown(page))
        url = link(page, "next")
    assert [len(p) for p in pages] == [size, size, 50]
    assert [n for p in pages for n in p] == list(range(2 * size + 50, 0, -1))  # each once
    last = client.get(f"/matches/{key}/log?older=51").get_data(as_text=True)
    assert "entry 50<" in last and "entry 51<" not in last
    newer = link(last, "prev")
    assert numbers_shown(client.get(newer).get_data(as_text=True)) == list(
        range(size + 50, 50, -1))
    for odd in ("x", "-1", "99999999999", ""):  # no number: the newest page
        assert numbers_shown(client.get(f"/matches/{key}/log?older={odd}").get_data(
            as_text=True)) == pages[0]


def test_a_log_page_costs_the_same_with_many_entries(app, client):
    few = match_with_log(app, client, 20)
    many = match_with_log(app, client, 3000)
    queries = len(queries_for(app, client, f"/matches/{few}/log"))
    assert len(queries_for(app, client, f"/matches/{many}/log")) == queries
    assert len(queries_for(app, client, f"/matches/{many}/log?older=200")) == queries
    page = client.get(f"/matches/{many}/log")
    assert page.get_data(as_text=True).count('class="log-') == match_log.PAGE_SIZE
    assert len(page.get_data()) < 100_000


# --- the limits of an import, right at each and just beyond ---------------------------------

def minimal_log(count, hand_number=None):
    return [{"action": "settings", "position": 0}] * count if hand_number is None else [
        {"action": "added", "position": 1, "hand_number": hand_number}] * count


def bare_match(log=()):
    return {"variant": "nanking", "target": 1000, "players": ["A", "B", "C", "D"],
            "hands": [], "log": list(log)}


def file_of(matches):
    return json.dumps({"format": "tichu-scorer", "version": 1, "matches": matches},
                      separators=(",", ":")).encode()


def test_log_entries_per_match_right_at_the_limit_and_beyond(app, client):
    most = checks.MAX_IMPORT_EVENTS
    r = upload(client, file_of([bare_match(minimal_log(most + 1))]))
    assert r.status_code == 422
    assert f"match 1: log must be a list of at most {most} entries ({most + 1} given)" in \
        text_of(r)
    assert stored(app) == 0
    assert upload(client, file_of([bare_match(minimal_log(most))])).status_code == 303
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(HandEvent.id))) == most


def test_log_entries_per_file_right_at_the_limit_and_beyond(app, client):
    most = checks.MAX_IMPORT_TOTAL_EVENTS
    per_match = checks.MAX_IMPORT_EVENTS
    matches = [bare_match(minimal_log(per_match)) for _ in range(most // per_match)]
    matches.append(bare_match(minimal_log(1)))
    r = upload(client, file_of(matches))
    assert r.status_code == 422
    assert f"An import holds at most {most} log entries ({most + 1} given)" in text_of(r)
    assert stored(app) == 0
    assert upload(client, file_of(matches[:-1])).status_code == 303
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(HandEvent.id))) == most


def test_hands_per_match_right_at_the_limit_and_beyond(app, client):
    most = checks.MAX_IMPORT_HANDS
    hands = long_match(most + 1)
    hands["matches"][0]["log"] = []
    r = upload(client, json.dumps(hands).encode())
    assert r.status_code == 422
    assert f"match 1: hands must be a list of at most {most} ({most + 1} given)" in text_of(r)
    assert stored(app) == 0
    hands["matches"][0]["hands"].pop()
    assert upload(client, json.dumps(hands).encode()).status_code == 303
    with app.app_context():
        assert db.session.execute(db.select(Match.hand_count)).scalar_one() == most - (
            most // 11)  # every eleventh hand is a deleted one


def test_matches_per_file_right_at_the_limit_and_beyond(app, client):
    most = checks.MAX_IMPORT_MATCHES
    r = upload(client, file_of([bare_match()] * (most + 1)))
    assert r.status_code == 422
    assert f"matches must be a list of at most {most} ({most + 1} given)" in text_of(r)
    assert stored(app) == 0
    assert upload(client, file_of([bare_match()] * most)).status_code == 303
    assert stored(app) == most


def test_a_match_beyond_what_an_export_holds_is_not_exported(app, client):
    most = checks.MAX_IMPORT_EVENTS
    assert upload(client, file_of([bare_match(minimal_log(most))])).status_code == 303
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalar_one()
        key, match_id = match.key, match.id
    export = client.get(f"/matches/{key}/export.json")
    assert export.status_code == 200 and len(export.get_json()["matches"][0]["log"]) == most
    with app.app_context():  # one more entry than an import takes (a long life of edits)
        db.session.add(HandEvent(match_id=match_id, position=0, action="settings"))
        db.session.commit()
    for kind in ("json", "csv"):
        r = client.get(f"/matches/{key}/export.{kind}")
        assert r.status_code == 422
        assert f"{most + 1} log entries" in text_of(r) and f"{most} log entries" in text_of(r)


# --- the file itself ----------------------------------------------------------------------

@pytest.mark.parametrize("blob, key", [
    (b'{"format": "tichu-scorer", "format": "other", "version": 1, "matches": []}', "format"),
    (b'{"format": "tichu-scorer", "version": 1, "matches": [{"variant": "nanking", '
     b'"target": 1000, "target": 500, "players": ["A", "B", "C", "D"]}]}', "target"),
    (b'{"format": "tichu-scorer", "version": 1, "matches": [{"variant": "nanking", '
     b'"target": 1000, "players": ["A", "B", "C", "D"], "hands": [{"number": 1, '
     b'"out_order": [0, 1], "card_points": [50, null], "calls": {"0": "tichu", '
     b'"0": "grand"}}]}]}', "0"),
])
def test_a_name_given_twice_in_an_object_is_refused_naming_it(app, client, blob, key):
    r = upload(client, blob)
    assert r.status_code == 422
    assert f"The name “{key}” appears twice in one object" in text_of(r)
    assert stored(app) == 0


# --- shapes that answered 500 (or a bare 400): refused, naming the entry and the field ---

@pytest.mark.parametrize("change, message", [
    # a list or an object cannot be looked up among the hands (TypeError)
    (lambda m: m.update(log=[edited(hand_number=[1])]),
     "match 1, log entry 1: hand_number [1] is not a hand of this match."),
    (lambda m: m.update(log=[edited(hand_number={"n": 1})]),
     "match 1, log entry 1: hand_number {'n': 1} is not a hand of this match."),
    # a seat key too long for int() (ValueError): no small seat number, refused with [P3]
    (lambda m: m.update(log=[edited(before={"calls": {"9" * 5000: "tichu"}})]),
     'match 1, log entry 1: before.calls must map seats 0–3 to "tichu" or "grand". (P3)'),
    # a time that leaves the calendar once in UTC (OverflowError)
    (lambda m: m.update(started_at="0001-01-01T00:00:00+01:00"),
     "match 1: started_at '0001-01-01T00:00:00+01:00' is not a date and time of the years "
     "1 to 9999 in UTC."),
    (lambda m: m["hands"][0].update(created_at="9999-12-31T23:30:00-01:00"),
     "match 1, hand 1: created_at '9999-12-31T23:30:00-01:00' is not a date and time of the "
     "years 1 to 9999 in UTC."),
    (lambda m: m.update(log=[edited(at="0001-01-01T00:00:00+00:01")]),
     "match 1, log entry 1: at '0001-01-01T00:00:00+00:01' is not a date and time of the "
     "years 1 to 9999 in UTC."),
])
def test_an_import_of_an_odd_shape_is_refused_naming_where_and_the_field(app, client, change,
                                                                         message):
    data = one_match([])
    change(data["matches"][0])
    r = upload(client, json.dumps(data).encode())
    page = text_of(r)
    assert r.status_code == 422, page[-600:]
    assert message in page
    assert stored(app) == 0


def test_a_log_naming_a_matchs_own_call_is_imported_and_said_in_words(app, client):
    """[R9]: "blind" is a call of a match whose house rules define it (for one without it,
    it is refused above)."""
    data = one_match([edited(after={"calls": {"0": "blind"}})])
    data["matches"][0]["house_rules"] = {"custom_calls": {"blind": 400}}
    r = upload(client, json.dumps(data).encode())
    assert r.status_code == 303, text_of(r)[-600:]
    with app.app_context():
        key = db.session.execute(db.select(Match.key)).scalar_one()
    page = text_of(client.get(f"/matches/{key}/log"))
    assert "cannot be read" not in page and "call Tichu → blind" in page
