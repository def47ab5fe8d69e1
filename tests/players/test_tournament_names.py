"""A rename or a merge at a tournament's table follows into the tournament: its entries,
a pair's members and name, the byes; the standing and the next draw read the new name;
two entries are never merged; the ratings page names the player anew."""

import html

from tests.views.test_tournaments import play, start, tables
from tichu_scorer.extensions import db
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
