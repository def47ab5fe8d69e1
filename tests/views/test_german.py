"""The German pages as a German Tichu player reads them: numbers with a decimal comma, one
word for one thing ("Großes Tichu", "Runde" for a hand), the table named in German."""

import re

import pytest

from tests.conftest import hand_form, new_match, post_hand
from tests.players.links import unlinked
from tests.views.test_variants import start


def card_of(page: str, name: str) -> str:
    at = page.index(f"<h3>{name}</h3>")
    return re.sub(r"[ \n]+", " ", page[at:page.index("</section>", at)])


def text(page: str) -> str:
    return re.sub(r"[ \n]+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("language, average, rate, played, grand", [
    ("de", "+167,5", "50\xa0%", "1 gespielt, 0 gewonnen", "Großes Tichu"),
    ("en", "+167.5", "50%", "1 played, 0 won", "Grand Tichu"),
])
def test_stats_follow_the_language(client, language, average, rate, played, grand):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu", "1": "grand"}))
    post_hand(client, url, hand_form([1, 0], a=35))
    client.set_cookie("lang", language)
    ann = card_of(unlinked(client.get("/stats?view=cards").get_data(as_text=True)), "Ann")
    assert f"<dd>{average}</dd>" in ann  # (300 + 35) / 2 points a hand
    assert rate in ann  # first out in 1 of 2 hands
    assert played in ann  # one run of words, not "Partien 2 0 gewonnen"
    assert f"<dt>{grand}</dt>" in ann


def test_german_stats_say_hands_as_german_players_do(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    client.set_cookie("lang", "de")
    ann = text(card_of(unlinked(client.get("/stats?view=cards").get_data(as_text=True)), "Ann"))
    assert "Als Erste(r) raus 100\xa0% von 1 Runde" in ann
    assert "Schnitt pro Runde" in ann and "Hand" not in ann and "Grand" not in ann


@pytest.mark.parametrize("language, rank", [("de", "1,00"), ("en", "1.00")])
def test_seigneur_average_rank_follows_the_language(client, language, rank):
    url = start(client, "seigneur", ["A", "B", "C", "D", "E"])
    post_hand(client, url, {f"place_{i + 1}": str(s) for i, s in enumerate([0, 1, 2, 3])})
    client.set_cookie("lang", language)
    page = client.get(url).get_data(as_text=True)
    assert f'<td class="num">{rank}</td>' in page


@pytest.mark.parametrize("language, first, table", [
    ("de", "Ann", "Anns Tisch"), ("de", "Hans", "Hans’ Tisch"), ("de", "Max", "Max’ Tisch"),
    ("de", "Fritz", "Fritz’ Tisch"), ("de", "Strauß", "Strauß’ Tisch"),
    ("en", "Ann", "Ann's table"), ("en", "Hans", "Hans's table"),
])
def test_the_default_table_name_follows_the_phone_that_made_it(client, language, first,
                                                                   table):
    client.set_cookie("lang", language)
    new_match(client, names=[first, "Bob", "Cy", "Dee"])
    client.set_cookie("lang", "en")  # a phone reading another language sees the same name
    assert table in client.get("/").get_data(as_text=True).replace("&#39;", "'")


def test_the_german_match_page_speaks_of_rounds(client):
    url = new_match(client)
    post_hand(client, url, hand_form([2, 1], a=65))
    client.get(url)  # the English message of the save
    client.set_cookie("lang", "de")
    page = text(client.get(url).get_data(as_text=True))
    assert "Runde 2: Erste(r) raus?" in page
    assert "Cy als Erste(r) raus" in page and "Runden, neueste zuerst" in page
    assert "Runde 2 eintragen" in page
    assert not re.search(r"\bH(a|ä)nde?n?\b|draußen", page)
