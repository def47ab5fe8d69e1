"""A rename or a merge at a tournament's table follows into the tournament: its entries,
a pair's members and name, the byes; the standing and the next draw read the new name;
two entries are never merged; the ratings page names the player anew."""

import html
import re

from tests.views.test_tournaments import play, start, tables
from tichu_scorer.extensions import db
from tichu_scorer.matches import roster, writes
from tichu_scorer.models import Player, Tournament, TournamentRound


def keys(app):
    with app.app_context():
        return {p.name: p.key for p in db.session.execute(db.select(Player)).scalars()}


def test_a_rename_follows_into_the_entries_byes_and_standing(app, client):
    url = start(client, [f"Player {i}" for i in range(1, 6)], rounds=2, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    play(client, tables(client, url, 1)[0], 1)
    with app.app_context():
        bye = db.session.execute(db.select(TournamentRound)).scalar_one().byes[0]
    found = keys(app)
    seated = next(n for n in found if n != bye)
    for old, new in ((bye, "Sat Out"), (seated, "Played On")):
        r = client.post(f"/players/{found[old]}/rename", data={"name": new})
        assert r.status_code == 303
    client.get("/players")  # (its message names the old name)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        names = {e.name for e in tournament.entries}
        assert {"Sat Out", "Played On"} <= names and not {bye, seated} & names
        assert db.session.execute(db.select(TournamentRound)).scalar_one().byes == ["Sat Out"]
    page = html.unescape(client.get(url).get_data(as_text=True))
    assert "Played On" in page and seated not in page
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    ratings = client.get("/stats/ratings").get_data(as_text=True)
    assert "Played On" in ratings and seated not in ratings


def test_two_entries_are_not_merged(app, client):
    start(client, [f"Player {i}" for i in range(1, 5)], rounds=1, hands=1)
    found = keys(app)
    r = client.post(f"/players/{found['Player 1']}/merge", data={"into": found["Player 2"]})
    assert r.status_code == 409 and "(TN1)" in r.get_data(as_text=True)


def test_a_pair_takes_its_members_new_names(app, client):
    url = start(client, ["Ann & Bob", "Cy & Dee"], rounds=1, hands=1, kind="pairs")
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    found = keys(app)
    assert client.post(f"/players/{found['Ann']}/rename",
                       data={"name": "Annie"}).status_code == 303
    with app.app_context():
        entries = db.session.execute(db.select(Tournament)).scalar_one().entries
        pair = next(e for e in entries if "Bob" in (e.members or []))
        assert pair.members == ["Annie", "Bob"] and pair.name == "Annie & Bob"
    assert "Annie &amp; Bob" in client.get(url).get_data(as_text=True)


def merged_bye(app, client):
    """A tournament of five whose first round sat one out; that one is merged into Zoe, a
    player of the table but no entry. The tournament's URL, the one merged, the keys."""
    url = start(client, [f"Player {i}" for i in range(1, 6)], rounds=3, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    play(client, tables(client, url, 1)[0], 1)
    with app.app_context():
        group_id = db.session.execute(db.select(Tournament)).scalar_one().group_id
        bye = db.session.execute(db.select(TournamentRound)).scalar_one().byes[0]
        writes.begin_write()
        writes.lock_table(group_id)
        roster.player_named(group_id, "Zoe")
        db.session.commit()
    found = keys(app)
    r = client.post(f"/players/{found[bye]}/merge", data={"into": found["Zoe"]})
    assert r.status_code == 303
    return url, bye, found


def undo_path(client):
    page = client.get("/players").get_data(as_text=True)
    return re.findall(r'action="(/players/merges/[^/"]+/undo)"', page)[0]


def entries_and_byes(app):
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        return ({e.name for e in tournament.entries},
                [r.byes for r in tournament.played])


def test_an_undo_names_the_merged_entry_again_and_keeps_what_changed_since(app, client):
    """After the merge: another entry is renamed, the player merged into is renamed, and
    a round is drawn. The undo gives the entry (and its byes, old and new) its own name
    back and leaves the later renames as they are (it used to put every entry back as it
    was at the merge: the other player's entry took its old name again)."""
    url, bye, found = merged_bye(app, client)
    other = next(n for n in found if n not in (bye, "Zoe"))
    assert client.post(f"/players/{found[other]}/rename",
                       data={"name": "Renamed"}).status_code == 303
    assert client.post(f"/players/{found['Zoe']}/rename",
                       data={"name": "Zoey"}).status_code == 303
    names, byes = entries_and_byes(app)
    assert "Zoey" in names and bye not in names and byes == [["Zoey"]]
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    assert client.post(undo_path(client)).status_code == 303
    names, byes = entries_and_byes(app)
    assert names == {f"Player {i}" for i in range(1, 6)} - {other} | {"Renamed"}
    assert byes[0] == [bye] and all(set(b) <= names for b in byes), byes
    assert "Zoey" in keys(app) and bye in keys(app)
    page = html.unescape(client.get(url).get_data(as_text=True))
    assert "Renamed" in page and other not in page


def test_an_undo_is_refused_when_the_merged_entry_names_someone_else_now(app, client):
    """An entry the merge renamed that no longer names the player merged into (changed
    since): the undo is refused with a 409 naming the entry and the player; nothing is
    changed, the merge stays in force."""
    _url, bye, _found = merged_bye(app, client)
    with app.app_context():
        tournament = db.session.execute(db.select(Tournament)).scalar_one()
        entry = next(e for e in tournament.entries if e.name == "Zoe")
        entry.name, entry.name_key = "Stranger", "stranger"
        db.session.commit()
    path = undo_path(client)
    r = client.post(path)
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 409
    assert "Stranger" in text and "no longer names Zoe" in text
    assert bye not in keys(app) and "Zoe" in keys(app)
    assert path in client.get("/players").get_data(as_text=True)


def test_an_undo_gives_a_pair_its_member_back(app, client):
    """Ann of the pair "Ann & Bob" merged into Zoe (no entry), then Cy renamed: the undo
    names the pair "Ann & Bob" again and leaves "Cyd & Dee"."""
    start(client, ["Ann & Bob", "Cy & Dee"], rounds=1, hands=1, kind="pairs")
    with app.app_context():
        group_id = db.session.execute(db.select(Tournament)).scalar_one().group_id
        writes.begin_write()
        writes.lock_table(group_id)
        roster.player_named(group_id, "Zoe")
        db.session.commit()
    found = keys(app)
    assert client.post(f"/players/{found['Ann']}/merge",
                       data={"into": found["Zoe"]}).status_code == 303
    assert client.post(f"/players/{found['Cy']}/rename", data={"name": "Cyd"}).status_code == 303
    assert entries_and_byes(app)[0] == {"Zoe & Bob", "Cyd & Dee"}
    assert client.post(undo_path(client)).status_code == 303
    assert entries_and_byes(app)[0] == {"Ann & Bob", "Cyd & Dee"}
