"""The browser receives rules as data (STYLE.md, 16): the bombs a player may be counted
with ([B1]) and the places a Grand Seigneur order needs ([GS1], the last derived)
reach the hand forms from the server's rules, and the scripts hold no copy of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tichu_scorer.scoring import seigneur
from tichu_scorer.views import hands

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def start(client, names, **extra) -> str:
    data = {f"seat_{i}": n for i, n in enumerate(names)} | extra
    return client.post("/matches/new", data=data).headers["Location"]


@pytest.mark.parametrize("most", [4, 6])
def test_the_hand_form_counts_bombs_up_to_the_rules_bound(client, monkeypatch, most):
    monkeypatch.setattr(hands, "MOST_BOMBS", most)  # a rule set where it differs
    page = client.get(start(client, ["A", "B", "C", "D"]) + "/hands/new").get_data(as_text=True)
    bounds = re.findall(r'<input[^>]*class="bomb-count"[^>]*>', page)
    assert len(bounds) == 4 and all(f'max="{most}"' in b for b in bounds)


@pytest.mark.parametrize("players", [5, 8])
def test_the_ranking_form_says_how_many_places_are_tapped(client, monkeypatch, players):
    names = [f"P{i}" for i in range(players)]
    url = start(client, names, variant="seigneur")
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert f'data-taps="{players - 1}"' in page
    monkeypatch.setattr(seigneur, "places_to_tap", lambda n: n)  # every place tapped
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert f'data-taps="{players}"' in page


@pytest.mark.parametrize(("script", "copy"), [
    ("hand.js", r"[<>]=?\s*4\b|\b4\s*[<>]"),  # the bombs' bound
    ("ranking.js", r"length\s*-\s*1\b"),  # the places to tap, the last derived
])
def test_the_scripts_keep_no_copy_of_the_rules_bounds(script, copy):
    assert not re.search(copy, (JS / script).read_text()), script
