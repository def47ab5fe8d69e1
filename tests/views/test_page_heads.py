"""Every page's head: one description, in the page's language, the page's own where it has
one; the top bar's language switch; export and import kept off a newcomer's home page."""

from __future__ import annotations

import re

import pytest

from tests.conftest import new_match

DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')
# the pages with a description of their own; every other page has the default
OWN = {"/": "home", "/referee": "referee", "/rules": "rules", "/stats": "stats"}


def descriptions(client, path: str, language: str) -> list[str]:
    page = client.get(path, headers={"Accept-Language": language})
    assert page.status_code in (200, 400, 404, 422), (path, page.status_code)
    return DESCRIPTION.findall(page.get_data(as_text=True))


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_public_page_has_one_description_in_its_language(client, language):
    match = new_match(client)
    code = client.get(match + "/share").get_data(as_text=True).split('data-code="')[1].split('"')[0]
    paths = ["/", "/matches/new", "/join", "/join?code=ZZZZZZ", "/referee",
             "/referee?trick=4j&play=&hand=8s+Kj&wish=8", "/referee?play=5x", "/rules",
             "/stats", "/offline", "/import", match, match + "/hands/new", match + "/log",
             match + "/share", match + "/board", f"/v/{code}", "/matches/nope"]
    found = {}
    for path in paths + paths[::-1]:  # each page after every other: the kept parts differ
        texts = descriptions(client, path, language)
        assert len(texts) == 1 and len(texts[0].strip()) > 30, (path, texts)
        assert found.setdefault(path, texts[0]) == texts[0], path
    default = found["/matches/new"]
    own = {found[path] for path in OWN}
    assert len(own) == len(OWN) and default not in own  # each its own, none the default
    assert {found[path] for path in paths if path.split("?")[0] not in OWN} == {default}
    other = "de" if language == "en" else "en"
    assert all(descriptions(client, path, other)[0] != found[path] for path in OWN)


def test_a_description_is_kept_per_page_and_language(client):
    """The description is rendered once per process, language and page (`chrome`): pages
    asked for in turn, in both languages, each get their own."""
    seen = {}
    for _ in range(2):
        for language in ("en", "de"):
            for path in OWN:
                text = descriptions(client, path, language)[0]
                assert seen.setdefault((path, language), text) == text
    assert len(set(seen.values())) == len(seen) == 2 * len(OWN)


def test_the_top_bar_offers_the_other_language_on_every_page(client):
    for language, offered in (("en", "de"), ("de", "en"), ("en", "de")):
        for path in ("/", "/rules", "/import", "/offline", "/nope"):
            html = client.get(path, headers={"Accept-Language": language}).get_data(
                as_text=True)
            top = html[html.index("<header"):html.index("</header>")]
            switch = re.findall(r'<a class="lang" href="/lang/(\w+)"', top)
            assert switch == [offered], (path, language, top)


def test_a_newcomers_home_page_links_to_import_and_shows_no_file_picker(client):
    home = client.get("/").get_data(as_text=True)
    assert 'type="file"' not in home and "Export and import" not in home
    assert 'href="/import"' in home
    page = client.get("/import").get_data(as_text=True)
    assert page.count('type="file"') == 1 and 'action="/import#import-error"' in page
    assert "All matches as JSON" not in page  # nothing to export yet
    new_match(client)
    home = client.get("/").get_data(as_text=True)
    assert home.count('type="file"') == 1 and "All matches as JSON" in home
    assert "All matches as JSON" in client.get("/import").get_data(as_text=True)


def test_a_newcomers_refused_import_shows_the_form_and_the_reason(client):
    refused = client.post("/import", data={}, content_type="multipart/form-data")
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert 'id="import-error"' in html and 'aria-describedby="import-error"' in html
