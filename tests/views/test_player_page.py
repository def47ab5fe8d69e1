"""A player's page (`/players/<key>`): the figures against a history built hand by hand,
the periods, partners and opponents per variant, access, and the links to it."""

import re
from datetime import datetime, timedelta, timezone

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.views.test_variants import start
from tichu_scorer.clock import utcnow
from tichu_scorer.extensions import db
from tichu_scorer.models import Group, Match, Player


def key_of(app, name):
    with app.app_context():
        return db.session.execute(db.select(Player.key).filter_by(name=name)).scalar_one()


def dd(page, marker):
    at = page.index(f"<dd {marker}>")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page[at:page.index("</dd>", at)])).strip()


def item(page, marker):
    at = page.index(marker)
    return page[at:page.index("</li>", at)]


def rows(page, table):
    """A table's rows as (name, cells) from `data-<table>`."""
    at = page.index(f"data-{table}>")
    body = page[at:page.index("</table>", at)]
    return {re.sub(r"<[^>]+>", "", th): [re.sub(r"<[^>]+>", "", c) for c in cells]
            for th, cells in ((m.group(1), re.findall(r"<td>(.*?)</td>", m.group(2)))
                              for m in re.finditer(r'<th scope="row">(.*?)</th>(.*?)</tr>',
                                                   body, re.S))}


def history(app, client):
    """Two matches of Ann: won with Cy (four double victories, each with her Tichu, to
    1200), and lost with Bob against Dee and Cy (her Grand Tichu failed, then her missed
    wish gave the other side 200: 400 reached)."""
    first = new_match(client)  # Ann & Cy against Bob & Dee
    for _ in range(4):
        assert post_hand(client, first, hand_form([0, 2], {"0": "tichu"})).status_code == 303
    second = new_match(client, ["Ann", "Dee", "Bob", "Cy"], target="custom", custom="400")
    assert post_hand(client, second, hand_form([1, 3], {"0": "grand"})).status_code == 303
    assert post_hand(client, second, hand_form([], wish=0)).status_code == 303
    with app.app_context():
        one, two = (db.session.get(Match, match_id(u)) for u in (first, second))
        assert (one.totals, one.winner_team) == ([1200, 0], 0)
        assert (two.totals, two.winner_team) == ([-200, 400], 1)
    return first, second


def test_the_page_adds_up_a_history_built_hand_by_hand(app, client):
    first, second = history(app, client)
    page = client.get(f"/players/{key_of(app, 'Ann')}").get_data(as_text=True)
    assert "<h1" in page and ">Ann</h1>" in page
    assert dd(page, "data-matches") == "2 played, 1 won"
    assert dd(page, "data-hands") == "6 played, 4 won 67%"  # the first match's four
    assert dd(page, "data-per-hand") == "+166.7"  # (1200 − 200) / 6
    assert dd(page, "data-tichu") == "4/4 100%"
    assert dd(page, "data-grand") == "0/1 0%"
    assert dd(page, "data-first-out") == "4 67%"
    assert dd(page, "data-double") == "4"
    assert dd(page, "data-missed-wishes") == "1"
    assert rows(page, "partners") == {"Cy": ["1/1", "+300.0"], "Bob": ["0/1", "−100.0"]}
    assert rows(page, "opponents") == {"Dee": ["2", "1 : 1"], "Bob": ["1", "1 : 0"],
                                       "Cy": ["1", "0 : 1"]}
    best = item(page, "data-best-partner")
    assert ">Cy</a>" in best and "1 of 1 won" in best
    assert ">Bob</a>" in page[page.index("data-worst-partner"):page.index("data-best-points")]
    assert ">Cy</a>" in page[page.index("data-best-points"):page.index("data-worst-points")]
    assert ">Dee</a>" in page[page.index("data-rival"):page.index("data-nemesis")]
    nemesis = item(page, "data-nemesis")
    assert ">Cy</a>" in nemesis and "1 won, 2 lost" not in nemesis and "0 won, 1 lost" in nemesis
    # the rating's line: one finished match each, two points drawn from the start; on the
    # ratings page's scale (a new player is at 1,000), provisional under five matches
    assert 'data-rating="nanking"' in page and "2 matches" in page
    figure = page[page.index('data-rating="nanking"'):page.index("</figure>")]
    shown = re.search(r"<strong>([^<]+)</strong>", figure).group(1)
    assert re.fullmatch(r"\d,\d{3}|\d{3}", shown) and "provisional" in figure
    assert "1,000" in figure[figure.index("rating-scale"):]
    # the latest matches, the newest first, each one tap from its page
    latest = page[page.index("data-latest"):page.index("</ul>", page.index("data-latest"))]
    assert re.findall(r'href="(/matches/[^"]+)"', latest) == [second, first]
    # each companion's name opens their page
    assert f'href="/players/{key_of(app, "Dee")}"' in page


def test_the_periods_count_the_matches_started_in_them(app, client, time_machine):
    time_machine.move_to(datetime(2026, 12, 15, 21, 0, tzinfo=timezone.utc))
    first, second = history(app, client)
    with app.app_context():
        db.session.get(Match, match_id(first)).started_at = utcnow() - timedelta(days=400)
        db.session.get(Match, match_id(second)).started_at = utcnow() - timedelta(hours=20)
        db.session.commit()
    new_match(client, ["Ann", "Eve", "Fay", "Gus"])  # tonight, no hand yet
    url = f"/players/{key_of(app, 'Ann')}"

    def page(period):
        return client.get(url + (f"?period={period}" if period else "")).get_data(as_text=True)
    assert dd(page(None), "data-matches") == "3 played, 1 won"
    assert dd(page("bogus"), "data-matches") == "3 played, 1 won"  # unknown: all
    year = page("year")
    assert dd(year, "data-matches") == "2 played, 0 won"
    assert dd(year, "data-hands") == "2 played, 0 won 0%"
    assert dd(year, "data-missed-wishes") == "1" and dd(year, "data-grand") == "0/1 0%"
    assert set(rows(year, "opponents")) == {"Dee", "Cy", "Eve", "Gus"}
    assert rows(year, "partners") == {"Bob": ["0/1", "−100.0"], "Fay": ["0/1", "—"]}
    assert dd(page("month"), "data-matches") == "2 played, 0 won"
    tonight = page("tonight")
    assert dd(tonight, "data-matches") == "1 played, 0 won"
    assert dd(tonight, "data-hands") == "0 played" and "data-missed-wishes" in tonight
    assert 'aria-current="page">Tonight<' in tonight


def test_threechu_has_no_partners_and_grand_seigneur_counts_as_played(app, client):
    url = start(client, "threechu", ["Tom", "Uma", "Vic"], hand_limit="3")
    assert post_hand(client, url, hand_form([0, 1], a=60)).status_code == 303
    seigneur = start(client, "seigneur", ["Tom", "G2", "G3", "G4", "G5"])
    post_hand(client, seigneur, {f"place_{i + 1}": str(s) for i, s in enumerate([0, 3, 2, 1])})
    page = client.get(f"/players/{key_of(app, 'Tom')}").get_data(as_text=True)
    assert "data-partners" not in page and "Threechu and Grand Seigneur have none" in page
    assert set(rows(page, "opponents")) == {"Uma", "Vic", "G2", "G3", "G4", "G5"}
    # Tom shuffled (the dummy his partner) and went out first; his side took 60 card points
    assert dd(page, "data-matches") == "2 played, 0 won"
    assert dd(page, "data-hands") == "2 played, 1 won 100% of 1 hand with points"
    assert rows(page, "variants") == {"Threechu: three and a dummy": ["1", "0", "1/1"],
                                      "Grand Seigneur: 5–12": ["1", "—", "1"]}
    assert "Dummy" not in re.sub(r"<title>.*?</title>", "", page)


def test_a_player_without_a_match_and_a_period_without_one(app, client):
    history(app, client)
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        db.session.add(Player(group_id=group.id, name="Zoe", name_key="zoe"))
        db.session.commit()
    page = client.get(f"/players/{key_of(app, 'Zoe')}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "Zoe has not played a match at this table yet." in body
    assert "data-no-rating" in body and "data-partners" not in body
    tonight = client.get(f"/players/{key_of(app, 'Zoe')}?period=tonight").get_data(as_text=True)
    assert "No match of Zoe in this period." in tonight


def test_only_devices_that_joined_the_table_see_the_page(app, client):
    url = new_match(client)
    key = key_of(app, "Ann")
    assert client.get(f"/players/{key}").status_code == 200
    stranger = app.test_client()
    assert stranger.get(f"/players/{key}").status_code == 404
    new_match(stranger, ["Eve", "Fay", "Gus", "Hal"])  # a table of its own
    assert stranger.get(f"/players/{key}").status_code == 404
    assert stranger.get("/tables/x/players/Ann").status_code == 404
    assert client.get("/players/nobody-has-this").status_code == 404
    with app.app_context():
        invite = db.session.get(Match, match_id(url)).group.invite_code
    viewer = app.test_client()
    assert viewer.get(f"/join?code={invite}").status_code in (302, 303)
    assert viewer.get(f"/players/{key}").status_code == 200


def test_names_link_to_the_page_where_they_are_shown(app, client):
    url = new_match(client)
    for _ in range(4):
        post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    ann = f'href="/players/{key_of(app, "Ann")}"'
    with app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
    for where in ("/stats", "/stats?view=cards", "/stats/ratings", "/",
                  f"/tables/{group.key}/tonight"):
        assert ann in client.get(where).get_data(as_text=True), where
    # the match page: its menu, by name at its table, one redirect away
    page = client.get(url).get_data(as_text=True)
    named = f"/tables/{group.key}/players/Ann"
    assert f'href="{named}"' in page
    found = client.get(named)
    assert found.status_code == 303 and found.headers["Location"].endswith(ann[6:-1])
    assert client.get(f"/tables/{group.key}/players/nobody").status_code == 404
    # a stranger sees no link (nor the names)
    assert "/players/" not in app.test_client().get("/stats").get_data(as_text=True)


def test_a_tournaments_standing_links_its_players(app, client):
    from tests.views.test_tournaments import start as start_tournament
    from tests.views.test_tournaments import tables
    players = ["Ann", "Bob", "Cy", "Dee"]
    url = start_tournament(client, players, rounds=1, hands=1)
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    assert post_hand(client, tables(client, url, 1)[0], hand_form([0, 1], a=60)).status_code \
        == 303
    page = client.get(url).get_data(as_text=True)
    standing = page[page.index("data-standing"):page.index("</table>", page.index("data-standing"))]
    assert f'href="/players/{key_of(app, "Ann")}">Ann</a>' in standing
    assert "/players/" not in app.test_client().get(url).get_data(as_text=True)


def test_in_tientsin_both_teammates_are_partners(app, client):
    url = start(client, "tientsin", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], target="1000")
    assert post_hand(client, url, hand_form([1, 3, 0], a=50, b=50)).status_code == 303
    page = client.get(f"/players/{key_of(app, 'Ann')}").get_data(as_text=True)
    # seated A1 B1 A2 B2 A3 B3: Ann, Cy and Eve against Bob, Dee and Fay
    assert set(rows(page, "partners")) == {"Cy", "Eve"}
    assert set(rows(page, "opponents")) == {"Bob", "Dee", "Fay"}
    with app.app_context():
        side = db.session.get(Match, match_id(url)).totals[0]
    assert rows(page, "partners")["Cy"] == ["0/1", f"{side:+.1f}".replace("-", "−")]
    # 50 : 50, a tie: nobody won the hand
    assert dd(page, "data-hands") == "1 played, 0 won 0%"
    bob = client.get(f"/players/{key_of(app, 'Bob')}").get_data(as_text=True)
    assert dd(bob, "data-hands") == "1 played, 0 won 0%"
    assert post_hand(client, url, hand_form([1, 3, 5])).status_code == 303  # B's triple
    bob = client.get(f"/players/{key_of(app, 'Bob')}").get_data(as_text=True)
    assert dd(bob, "data-hands") == "2 played, 1 won 50%"
    eve = client.get(f"/players/{key_of(app, 'Eve')}").get_data(as_text=True)
    assert dd(eve, "data-hands") == "2 played, 0 won 0%"


def test_no_best_partner_before_a_match_was_won_with_one(app, client):
    """Bob lost his only match with Dee: not "Best partner: Dee 0 of 1 won"."""
    url = new_match(client, target="custom", custom="200")  # Ann & Cy against Bob & Dee
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # Ann & Cy win
    page = client.get(f"/players/{key_of(app, 'Bob')}").get_data(as_text=True)
    assert "data-best-partner" not in page and "data-worst-partner" not in page
    page = client.get(f"/players/{key_of(app, 'Ann')}").get_data(as_text=True)
    assert "Cy" in item(page, "data-best-partner") and "data-worst-partner" not in page
