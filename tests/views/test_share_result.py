"""A result to share (issue 36, item 6): a match's final sheet, a table's evening and a
tournament's standing as plain text and as a PNG image, in the reader's language, only for
who may read them."""

import io
import re
import struct

import pytest
from PIL import Image

from tests.conftest import hand_form, new_match, post_hand
from tests.views.test_tournaments import play, start, tables

PNG = b"\x89PNG\r\n\x1a\n"


def size_of(body: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR)."""
    assert body[:8] == PNG and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def finished_match(client):
    url = new_match(client, target="custom", custom="200")
    assert post_hand(client, url, hand_form([0, 1], a=75)).status_code == 303
    assert post_hand(client, url, hand_form([0, 2])).status_code == 303  # a double victory
    return url


def test_a_finished_match_as_text_names_teams_totals_winner_and_date(client):
    url = finished_match(client)
    response = client.get(url + "/result.txt")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    text = response.get_data(as_text=True)
    lines = text.splitlines()
    assert re.search(r"Team A: Ann & Cy +\d+ ★$", text, re.M)
    assert re.search(r"^Team B: Bob & Dee +\d+$", text, re.M)
    assert "Won: Team A: Ann & Cy" in text and "to 200" in text and "2 hands" in text
    assert re.search(r"\b20\d\d\b", lines[1])  # the date
    assert lines[-1] == "— Tichu Scorer"
    assert 'filename="tichu-match-' in response.headers["Content-Disposition"]


def test_a_match_still_played_says_so_and_marks_no_winner(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 1], a=60))
    text = client.get(url + "/result.txt").get_data(as_text=True)
    assert "Still being played." in text and "★" not in text


def test_the_image_is_a_png_as_wide_as_a_phone_shares_and_as_tall_as_its_rows(client):
    url = finished_match(client)
    response = client.get(url + "/result.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    body = response.get_data()
    width, height = size_of(body)
    assert width == 1080 and 500 < height < 1000
    image = Image.open(io.BytesIO(body))
    assert image.getpixel((5, 5)) == (0xf6, 0xf6, 0xf3)  # the paper
    # the winner's row is banded: a row of pixels across its middle is mostly the band
    colours = {image.getpixel((x, 300)) for x in range(100, 980, 10)}
    assert (0xff, 0xf1, 0xc2) in colours or any((0xff, 0xf1, 0xc2) == image.getpixel(
        (540, y)) for y in range(200, height))


def test_german_reader_gets_german_text(client):
    url = finished_match(client)
    client.set_cookie("lang", "de")
    text = client.get(url + "/result.txt").get_data(as_text=True)
    assert "Team A: Ann & Cy" in text and "Gewonnen: Team A" in text and "2 Runden" in text
    assert "Punkte" in text and "Points" not in text
    german = client.get(url + "/result.png").get_data()
    client.set_cookie("lang", "en")
    assert german != client.get(url + "/result.png").get_data()  # drawn in its language


def test_a_stranger_gets_nothing(client, app):
    url = finished_match(client)
    stranger = app.test_client()
    for kind in ("txt", "png"):
        assert stranger.get(f"{url}/result.{kind}").status_code == 404
    assert stranger.get(url + "/result.gif").status_code == 404


def test_a_long_name_is_cut_in_the_image_and_whole_in_the_text(client):
    names = ["Maximiliane-Theodora Hohenzollern-Sigma", "Bob", "Cy", "Dee"]
    url = new_match(client, names=names)
    post_hand(client, url, hand_form([0, 1], a=60))
    assert names[0] in client.get(url + "/result.txt").get_data(as_text=True)
    assert size_of(client.get(url + "/result.png").get_data())[0] == 1080


def table_key(client, url):
    return re.search(r'href="/tables/([^"/]+)/tonight"', client.get(url).get_data(
        as_text=True)).group(1)


def test_tonight_as_text_ranks_the_players_and_names_the_best(client, app):
    url = finished_match(client)
    key = table_key(client, url)
    response = client.get(f"/tables/{key}/tonight/result.txt")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert text.startswith("Tonight at ")
    rows = [line.split()[0] for line in text.splitlines()[4:8]]
    assert rows[:2] == ["Ann", "Cy"] and set(rows[2:]) == {"Bob", "Dee"}
    assert "Best tonight: Ann, Cy." in text and "1 match tonight." in text
    assert size_of(client.get(f"/tables/{key}/tonight/result.png").get_data())[0] == 1080
    assert app.test_client().get(f"/tables/{key}/tonight/result.txt").status_code == 404
    client.set_cookie("lang", "de")
    assert "Heute Abend" in client.get(f"/tables/{key}/tonight/result.txt").get_data(
        as_text=True)


@pytest.mark.parametrize("kind", ["individual", "pairs"])
def test_a_tournament_standing_as_text_and_image(client, app, kind):
    if kind == "pairs":
        url = start(client, ["Ann & Bob", "Cy & Dee"], rounds=1, hands=1, kind="pairs")
    else:
        url = start(client, ["Ann", "Bob", "Cy", "Dee"], rounds=1, hands=1)
    text = client.get(url + "/result.txt").get_data(as_text=True)
    assert text.startswith("Club cup\n") and "No round drawn yet." in text
    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    play(client, tables(client, url, 1)[0], 1)
    text = client.get(url + "/result.txt").get_data(as_text=True)
    assert "Won: " in text and "1. " in text and "★" in text
    assert ("MP" in text) == (kind == "pairs")
    assert size_of(client.get(url + "/result.png").get_data())[0] == 1080
    assert app.test_client().get(url + "/result.png").status_code == 404


def test_a_tournaments_text_says_how_far_it_is(client):
    """Not "after round 1" while round 1 is only drawn or in play ([TN4]: a round is
    complete once every table has entered its last hand)."""
    url = start(client, ["Ann", "Bob", "Cy", "Dee"], rounds=2, hands=2)

    def said():  # the verdict: the line before the app's signature
        return client.get(url + "/result.txt").get_data(as_text=True).splitlines()[-2]

    assert client.post(url + "/draw", data={"round": 1}).status_code == 303
    assert said() == "Standing before the first round."
    first = tables(client, url, 1)[0]
    play(client, first, 1)
    assert said() == "Round 1 of 2 in play."
    client.set_cookie("lang", "de")
    assert said() == "Durchgang 1 von 2 läuft."
    client.set_cookie("lang", "en")
    play(client, first, 1)
    assert said() == "Standing after round 1 of 2."
    assert client.post(url + "/draw", data={"round": 2}).status_code == 303
    assert said() == "Standing after round 1 of 2."  # round 2 drawn, no hand in
    play(client, tables(client, url, 2)[0], 1)
    assert said() == "Round 2 of 2 in play."
    client.set_cookie("lang", "de")
    assert said() == "Durchgang 2 von 2 läuft."
    assert client.get(url + "/result.png").status_code == 200
