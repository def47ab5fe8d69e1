"""Statistics of a period (tonight, this month, all), as a table or as cards."""

import re
from datetime import datetime, timedelta, timezone

from tests.conftest import hand_form, match_id, new_match, post_hand
from tests.players.links import unlinked
from tichu_scorer.clock import utcnow
from tichu_scorer.extensions import db
from tichu_scorer.models import Match


def started(app, url, ago):
    with app.app_context():
        db.session.get(Match, match_id(url)).started_at = utcnow() - ago
        db.session.commit()


def players_shown(page):
    return set(re.findall(r'<th scope="row">([^<&]+)</th>', page))


def test_the_period_filter_counts_the_matches_started_in_it(app, client, time_machine):
    time_machine.move_to(datetime(2026, 12, 15, 21, 0, tzinfo=timezone.utc))
    now = new_match(client)
    earlier = new_match(client, names=["Eve", "Fay", "Gus", "Hal"])
    old = new_match(client, names=["Max", "Ned", "Oli", "Pat"])
    for url in (now, earlier, old):
        post_hand(client, url, hand_form([0, 1], a=60))
    started(app, earlier, timedelta(hours=20))
    started(app, old, timedelta(days=40))
    tonight = unlinked(client.get("/stats?period=tonight").get_data(as_text=True))
    assert players_shown(tonight) == {"Ann", "Bob", "Cy", "Dee"}
    month = players_shown(unlinked(client.get("/stats?period=month").get_data(as_text=True)))
    assert {"Ann", "Bob"} <= month and not {"Max", "Ned"} & month
    everything = players_shown(unlinked(client.get("/stats").get_data(as_text=True)))
    assert {"Ann", "Eve", "Max"} <= everything
    assert players_shown(unlinked(client.get("/stats?period=bogus").get_data(as_text=True))) == \
        everything  # an unknown period is all of them
    # a hand played since is in the period's figures at once (nothing kept to go stale)
    post_hand(client, now, hand_form([1, 0], {"1": "tichu"}, a=30))
    page = unlinked(client.get("/stats?period=tonight").get_data(as_text=True))
    bob = page[page.index('<th scope="row">Bob</th>'):]
    assert "<td>1/1</td>" in bob[:bob.index("</tr>")]


def test_tonight_crosses_midnight_and_the_month_begins_on_the_first(app, client,
                                                                     time_machine):
    """29 February 2028, 22:00 UTC: a match starts; 1 March, 08:00: it is tonight's (the last
    12 hours), but not this month's."""
    time_machine.move_to(datetime(2028, 2, 29, 22, 0, tzinfo=timezone.utc))
    late = new_match(client)
    post_hand(client, late, hand_form([0, 1], a=60))
    time_machine.move_to(datetime(2028, 3, 1, 8, 0, tzinfo=timezone.utc))
    today = new_match(client, names=["Eve", "Fay", "Gus", "Hal"])
    post_hand(client, today, hand_form([0, 1], a=60))
    tonight = players_shown(unlinked(client.get("/stats?period=tonight").get_data(as_text=True)))
    month = players_shown(unlinked(client.get("/stats?period=month").get_data(as_text=True)))
    assert {"Ann", "Eve"} <= tonight
    assert "Eve" in month and "Ann" not in month


def card(page, name):
    start = page.index(f"<h3>{name}</h3>")
    return page[start:page.index("</section>", start)]


def row(page, name):
    start = page.index(f'<th scope="row">{name}</th>')
    return page[start:page.index("</tr>", start)]


def test_the_table_shows_the_numbers_of_the_cards(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu", "1": "grand"}))
    post_hand(client, url, hand_form([1, 0], a=30))
    table = unlinked(client.get("/stats").get_data(as_text=True))
    cards = unlinked(client.get("/stats?view=cards").get_data(as_text=True))
    assert 'class="stat-table"' in table and 'class="stat-card"' not in table
    assert 'class="stat-card"' in cards and "view=cards" in table
    for name in ("Ann", "Bob", "Cy", "Dee"):
        shown_row = [c.strip() for c in re.findall(r"<td>([^<]*)", row(table, name))]
        shown_card = [c.strip() for c in re.findall(r"<dd>([^<]*)", card(cards, name))]
        # won of matches, Tichu, Grand Tichu, first out, average (the cards add double
        # victories)
        played, won = re.search(r"(\d+) played, (\d+) won", card(cards, name)).groups()
        assert shown_row == [f"{won}/{played}"] + [shown_card[i] for i in (1, 2, 3, 5)], (
            shown_row, shown_card)
    assert "<td>1/1</td>" in row(table, "Ann") and "<td>0/1</td>" in row(table, "Bob")


def test_one_hand_is_one_hand(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 1], a=60))
    cards = unlinked(client.get("/stats?view=cards").get_data(as_text=True))
    assert "of 1 hand<" in cards and "of 1 hands" not in cards
    german = client.get("/stats?view=cards", headers={"Accept-Language": "de"}).get_data(
        as_text=True)
    assert "von 1 Runde<" in german  # a hand is a "Runde" to German players
    post_hand(client, url, hand_form([1, 0], a=60))
    assert "of 2 hands<" in unlinked(client.get("/stats?view=cards").get_data(as_text=True))
