"""A code is accepted as a player types it: any spacing, dashes and case, and the
look-alikes O, I and L read as the 0 and 1 codes hold; anything else is refused, never
a 500."""

import pytest

from tests.conftest import match_id, new_match
from tichu_scorer.extensions import db
from tichu_scorer.models import Match
from tichu_scorer.tables import codes

CODE = "D0M1R6FQ"  # holds a 0 and a 1: their look-alikes are read as them


@pytest.mark.parametrize("typed", [
    "D0M1R6FQ", "d0m1r6fq", "D0M1 R6FQ", " d0m1  r6fq ", "D0M1-R6FQ", "d0m1-r6fq",
    "D0M1 - R6FQ", "D0M1–R6FQ", "D0M1—R6FQ", "D0M1.R6FQ", "D0M1_R6FQ", "D0M1\tR6FQ",
    "D0M1\u00a0R6FQ", "D0M1\u2009R6FQ", "D-0-M-1-R-6-F-Q", "ＤＯＭＩＲ６ＦＱ",
    "DOMIR6FQ", "domlr6fq", "DoMl R6FQ", "D0MIR6FQ", "d0mL-r6fq",
])
def test_a_code_is_read_however_it_is_typed(typed):
    assert codes.read(typed) == CODE


@pytest.mark.parametrize("typed", [
    "", " ", "-", "D0M1R6F", "D0M1R6FQQ", "D0M1R6F!", "D0M1R6F?", "D0M1R6FU\x00",
    "D0M1R6FÄ", "D0M1 R6F🙂", "D" * 41, "D0M1R6FQ" * 6, "D0M1R6FQD0M1R",
])
def test_what_cannot_be_a_code_is_none(typed):
    assert codes.read(typed) is None


def test_every_made_code_is_read_back_and_shown_in_groups():
    for length in codes.LENGTHS:
        made = codes.new_code(length)
        assert codes.read(codes.shown(made)) == made and codes.is_code(made, length)
        assert set(made) <= set(codes.ALPHABET) and not set(made) & set("OIL")
    assert codes.shown("ABCDEFGHJKMN") == "ABCD EFGH JKMN" and codes.shown("ABCDEF") == "ABC DEF"


@pytest.fixture()
def url(app, client):
    url = new_match(client)
    with app.app_context():
        db.session.get(Match, match_id(url)).code = CODE
        db.session.commit()
    return url


@pytest.mark.parametrize("typed", ["D0M1 R6FQ", "dom1-r6fq", "DOMI-R6FQ", " d0ml r6fq "])
def test_the_join_page_and_the_viewer_link_read_the_code(app, url, typed):
    phone = app.test_client()
    r = phone.get("/join", query_string={"code": typed})
    assert r.status_code == 303 and r.headers["Location"] == f"/v/{CODE}"
    assert phone.get(f"/v/{typed.strip()}").status_code == 200
    assert "Viewing only" in phone.get(url).get_data(as_text=True)


@pytest.mark.parametrize(("typed", "quoted"), [
    ("D0M1 R6F", "D0M1 R6F"), ("d0m1-r6fq-x", "D0M1 R6FQ X"), ("<b>D0M1", "&lt;B&gt;D 0M1"),
    ("x" * 5000, " ".join(["XXXX"] * 10) + "."), ("D0M1R6FQ!", "D0M1 R6FQ !"),
])
def test_a_code_no_match_has_is_refused_quoting_it(app, url, typed, quoted):
    r = app.test_client().get("/join", query_string={"code": typed})
    page = r.get_data(as_text=True)
    assert r.status_code == 404 and f"No table or match has the code {quoted}" in page
    assert "<b>" not in page


@pytest.mark.parametrize("path", ["/v/D0M1R6F", "/v/D0M1R6FQ!", "/v/" + "x" * 5000,
                                  "/v/%E2%80%94", "/v/D0M1%20R6FQ%20X"])
def test_a_viewer_link_with_no_code_is_404(app, url, path):
    assert app.test_client().get(path).status_code == 404


def test_the_code_fields_take_a_spaced_or_dashed_code(client):
    for path in ("/join", "/"):
        page = client.get(path).get_data(as_text=True)
        assert 'name="code"' in page and 'maxlength="8"' not in page
        assert 'maxlength="24"' in page
