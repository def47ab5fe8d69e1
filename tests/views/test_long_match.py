"""A long match page costs per row no more than its own numbers and names: the sentences of
its rows are translated once per page, not once per row; the page shows the latest hands and
links to all of them."""

import re

from babel.support import Translations

from tests.conftest import hand_form, match_key, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.matches import hand_entry, writes
from tichu_scorer.models import Match
from tichu_scorer.views.matches import LATEST


def add_hands(app, url, count, start=1):
    with app.test_request_context():
        for number in range(start, start + count):  # a failed call a hand, by either team in turn
            first, second = number % 4, (number + 1) % 4
            calls = {str(second): "tichu"} | ({str(first): "tichu"} if number % 10 == 0
                                              else {})
            match = writes.lock_match(match_key(url))
            hand, problems, _shown = hand_entry.add_hand(match, {
                "out_order": [first, second], "card_points": [50, None], "calls": calls},
                number)
            assert hand is not None, problems


def translations_for(client, url, monkeypatch):
    """Every message looked up in the catalogue while the page is made (templates, views
    and the core all end there)."""
    calls = []
    real = Translations.ugettext

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Translations, "ugettext", counted)
    page = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    monkeypatch.setattr(Translations, "ugettext", real)
    assert calls
    return calls, page


def test_row_sentences_are_translated_once_per_page(app, client, monkeypatch):
    short = new_match(client, target="custom", custom="10000")
    long = new_match(client, ["E", "F", "G", "H"], target="custom", custom="10000")
    add_hands(app, short, 10)
    add_hands(app, long, 200)
    warm = new_match(client, ["I", "J", "K", "L"])
    for url in ("/", warm, warm + "/every-hand"):  # every page's parts and heads, kept
        client.get(url, headers={"Accept-Language": "de"})
    few, _ = translations_for(client, short, monkeypatch)
    many, page = translations_for(client, long, monkeypatch)
    # the long match's page shows its latest hands and links to all of them
    assert len(many) == len(few) + 1 and set(many) - set(few) == {"Show all %(n)s hands"}
    assert "F als Erste(r) raus" in page and "G: Tichu ✓ geschafft" in page
    assert 'aria-label="Runde 200 bearbeiten"' in page
    every, page = translations_for(client, long + "/every-hand", monkeypatch)
    assert len(every) == len(few), sorted(set(every) - set(few))
    assert 'aria-label="Runde 1 bearbeiten"' in page


def rows_shown(page: str) -> list[int]:
    """The hand numbers of the table's rows, as shown (latest first)."""
    return [int(n) for n in re.findall(
        r'<tr(?: id="hand-\d+")?><th scope="row">(?:<a [^>]*>)?(\d+)', page)]


def test_a_long_match_page_shows_its_latest_hands_and_links_to_every_hand(app, client):
    """The page a phone opens stays small however long the match: its latest `LATEST`
    hands, and a link to the page with all of them; a match no longer than that shows
    every hand and no link."""
    url = new_match(client, target="custom", custom="10000")
    add_hands(app, url, LATEST)
    page = client.get(url).get_data(as_text=True)
    assert rows_shown(page) == list(range(LATEST, 0, -1)) and "every-hand" not in page
    add_hands(app, url, 5, start=LATEST + 1)
    page = client.get(url).get_data(as_text=True)
    assert rows_shown(page) == list(range(LATEST + 5, 5, -1))
    assert f'href="{url}/every-hand#hand-5">Show all {LATEST + 5} hands</a>' in page
    tag = client.get(url).headers["ETag"]  # the latest hands' page, kept and validated
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    whole = client.get(url + "/every-hand", headers={"If-None-Match": tag})
    assert whole.status_code == 200  # another page: never taken for the kept one
    every = whole.get_data(as_text=True)
    assert rows_shown(every) == list(range(LATEST + 5, 0, -1))
    assert f'href="{url}/hands/1/edit"' in every and "Show all" not in every
    # the totals, the chart and the undo above the table are the whole match's on both
    with app.app_context():
        totals = db.session.execute(db.select(Match).filter_by(
            key=match_key(url))).scalar_one().totals
    for shown in (page, every):
        assert re.findall(r'data-total="\d">(-?\d+)<', shown) == [str(t) for t in totals]
        assert f"Undo hand {LATEST + 5}" in shown
        assert shown.count('<path class="line ') == 2


def test_a_viewer_links_reader_and_a_member_get_the_same_every_hand_link(app, client):
    """One kept body serves both (neither may score): the link names the match, never the
    viewer code, which only a scorer is shown (a member must not learn it and pass it on);
    the viewer link's reader may open it read-only without joining."""
    url = new_match(client, target="custom", custom="10000")
    add_hands(app, url, LATEST + 1)
    with app.app_context():
        match = db.session.execute(db.select(Match).filter_by(key=match_key(url))).scalar_one()
        code, invite = match.code, match.group.invite_code
    stranger = app.test_client()
    assert stranger.get(url + "/every-hand").status_code == 404  # a stranger learns nothing
    page = stranger.get(f"/v/{code}").get_data(as_text=True)
    assert len(rows_shown(page)) == LATEST and f'href="{url}/every-hand#hand-1"' in page
    every = stranger.get(url + "/every-hand").get_data(as_text=True)
    assert rows_shown(every) == list(range(LATEST + 1, 0, -1))
    assert "/edit" not in every and "Undo" not in every
    member = app.test_client()
    assert member.get(f"/join?code={invite}").status_code == 303
    seen = member.get(url).get_data(as_text=True)
    assert f'href="{url}/every-hand#hand-1"' in seen and code not in seen and "/v/" not in seen


def test_an_older_hand_is_edited_from_and_back_to_the_page_that_shows_it(app, client):
    """Hand 1 of a long match is on the page of every hand: its form's Cancel, its saved
    edit and its deletion go back there, at its row; a hand of the latest goes back to the
    match page. The match page's link opens that page at the newest hand it leaves out."""
    url = new_match(client, target="custom", custom="10000")
    add_hands(app, url, LATEST + 5)
    every = url + "/every-hand"
    page = client.get(url).get_data(as_text=True)
    assert f'href="{every}#hand-5">Show all {LATEST + 5} hands' in page
    assert 'id="hand-' not in page
    rows = client.get(every).get_data(as_text=True)
    assert all(f'<tr id="hand-{n}">' in rows for n in range(1, LATEST + 6))
    form = client.get(url + "/hands/1/edit").get_data(as_text=True)
    assert f'<a class="back" href="{every}#hand-1">' in form
    latest = client.get(url + f"/hands/{LATEST + 5}/edit").get_data(as_text=True)
    assert f'<a class="back" href="{url}">' in latest
    edited = client.post(url + "/hands/1/edit", data=hand_form([0, 1], a=65) | {"version": "1"})
    assert edited.status_code == 303 and edited.headers["Location"] == every + "#hand-1"
    assert "Hand 1 updated." in client.get(every).get_data(as_text=True)
    edited = client.post(url + f"/hands/{LATEST + 5}/edit",
                         data=hand_form([0, 1], a=65) | {"version": "1"})
    assert edited.headers["Location"] == url
    # of 55 hands the match page shows 6 to 55: hand 5's deletion goes back to the page of
    # every hand, at hand 4; then hand 6, now the oldest of the latest 50, and its
    # neighbour on the match page; the first hand's deletion lands at the new first
    deleted = client.post(url + "/hands/5/delete", data={"version": "1"})
    assert deleted.status_code == 303 and deleted.headers["Location"] == every + "#hand-4"
    assert client.get(url + "/hands/6/edit").get_data(as_text=True).count(
        f'<a class="back" href="{url}">') == 1
    assert client.post(url + "/hands/6/delete", data={"version": "1"}).headers[
        "Location"] == url
    assert client.post(url + "/hands/1/delete", data={"version": "2"}).headers[
        "Location"] == every + "#hand-1"
    deleted = client.post(url + f"/hands/{LATEST + 5}/delete", data={"version": "2"})
    assert deleted.headers["Location"] == url


def test_a_long_grand_seigneur_match_shows_its_latest_hands(client):
    r = client.post("/matches/new", data={"variant": "seigneur"} | {
        f"seat_{i}": name for i, name in enumerate(["G1", "G2", "G3", "G4", "G5"])})
    url = r.headers["Location"]
    for number in range(1, LATEST + 3):
        order = {f"place_{i + 1}": str((s + number) % 5) for i, s in enumerate(range(4))}
        assert post_hand(client, url, order).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert rows_shown(page) == list(range(LATEST + 2, 2, -1))
    assert f"Show all {LATEST + 2} hands" in page
    every = client.get(url + "/every-hand").get_data(as_text=True)
    assert rows_shown(every) == list(range(LATEST + 2, 0, -1)) and 'id="hand-1"' in every
    assert f'href="{url}/every-hand#hand-2"' in page and 'id="hand-' not in page


def test_a_restored_older_hand_is_shown_where_it_is_back(app, client):
    """The Restore beside "Hand 3 deleted." brings the hand back in its place: an older hand
    of a long match on the page of every hand, at its row; the latest on the match page."""
    url = new_match(client, target="custom", custom="10000")
    add_hands(app, url, LATEST + 5)
    assert client.post(url + "/hands/3/delete", data={"version": "1"}).status_code == 303
    page = client.get(url + "/every-hand").get_data(as_text=True)
    assert 'action="' + url + '/hands/3/restore"' in page  # beside its message
    back = client.post(url + "/hands/3/restore")
    assert back.status_code == 303 and back.headers["Location"] == url + "/every-hand#hand-3"
    assert client.post(url + "/undo", data={"number": str(LATEST + 5)}).status_code == 303
    back = client.post(url + f"/hands/{LATEST + 5}/restore")
    assert back.headers["Location"] == url


def test_a_conflict_on_an_older_hand_leads_back_to_its_row(app, client):
    """Another phone changed or deleted an old hand first: "Keep theirs" and the refusal's
    way back lead to the page that shows it."""
    url = new_match(client, target="custom", custom="10000")
    add_hands(app, url, LATEST + 5)
    every = url + "/every-hand#hand-2"
    assert client.post(url + "/hands/2/edit", data=hand_form([0, 1], a=65) | {
        "version": "1"}).status_code == 303
    stale = client.post(url + "/hands/2/edit", data=hand_form([0, 1], a=55) | {"version": "1"})
    assert stale.status_code == 409
    assert re.search(f'<a class="button" href="{re.escape(every)}">Keep theirs</a>',
                     stale.get_data(as_text=True))
    refused = client.post(url + "/hands/2/delete", data={"version": "1"})
    assert refused.status_code == 409 and f'href="{every}"' in refused.get_data(as_text=True)
