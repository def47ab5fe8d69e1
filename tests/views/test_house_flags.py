"""A yes/no house rule is one row of `game.house.FLAGS`: each row, whatever it is, is a box
on the new-match form and on the settings page, ticked as a stored match plays, carried by
the evening's next match and by an export and its import, with nothing else written for
it. One request per way in and row; what the row decides is tests/scoring/test_house.py's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import NAMES, match_id
from tests.views.test_transfer import upload
from tichu_scorer.extensions import db
from tichu_scorer.game.house import FLAGS, RULE_BOOK
from tichu_scorer.models import Match

ROOT = Path(__file__).resolve().parents[2]


def box(page: str, name: str) -> str | None:
    """The <input> of the box `name` on a page, None when there is none."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    return found.group(0) if found else None


@pytest.mark.parametrize("flag", FLAGS, ids=lambda f: f.box)
def test_a_row_of_the_table_is_a_box_everywhere_a_match_is_set(app, client, flag):
    page = client.get("/matches/new").get_data(as_text=True)
    assert box(page, flag.box) is not None and flag.label in page  # the new-match form
    seats = {f"seat_{i}": n for i, n in enumerate(NAMES)}
    r = client.post("/matches/new", data=seats | {"target": "1000", "house": "own",
                                                  flag.box: "y"})
    assert r.status_code == 303
    url = r.headers["Location"]
    with app.app_context():
        match = db.session.get(Match, match_id(url))
        assert match.house == flag.rules(RULE_BOOK, True)
        table = match.group.key
    page = client.get(url + "/settings").get_data(as_text=True)
    ticked = [f.box for f in FLAGS if "checked" in (box(page, f.box) or "")]
    assert ticked == [flag.box]  # the settings page
    r = client.post(url + "/settings", data=seats | {"target": "1000", "house_shown": "1"})
    assert r.status_code == 303  # unticked: the rule book again
    with app.app_context():
        assert db.session.get(Match, match_id(url)).house == RULE_BOOK
    client.post(url + "/settings", data=seats | {"target": "1000", "house_shown": "1",
                                                 flag.box: "y"})
    tonight = client.get(f"/tables/{table}/tonight").get_data(as_text=True)
    assert f'name="{flag.box}" value="y"' in tonight  # the evening's next match
    data = client.get("/export.json").get_json()
    with app.app_context():
        db.session.query(Match).delete()
        db.session.commit()
    assert upload(client, json.dumps(data).encode()).status_code == 303  # the import
    with app.app_context():
        [match] = db.session.query(Match).all()
        assert match.house == flag.rules(RULE_BOOK, True)


def test_no_page_or_module_keeps_a_list_of_its_own():
    """The boxes are named in one place: no template or module but `game/house.py` names
    three of them (a list of the boxes, or of their rules, kept beside the table's)."""
    boxes = [flag.box for flag in FLAGS]
    files = [*ROOT.glob("tichu_scorer/**/*.py"), *ROOT.glob("templates/**/*.html")]
    lists = [str(f.relative_to(ROOT)) for f in files
             if sum(re.search(rf"[\"']{b}[\"']", f.read_text()) is not None
                    for b in boxes) >= 3]
    assert lists == ["tichu_scorer/game/house.py"]
