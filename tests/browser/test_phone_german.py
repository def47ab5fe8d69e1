"""A German phone at 360×640: the referee's keys name the special cards in German and fit
their keys; the match page's words (Runde, Erste(r) raus) fit on one line each."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot

# One line: the element is as tall as it is when it may not wrap.
ONE_LINE = """(el) => {
  const tall = el.getBoundingClientRect().height;
  el.style.whiteSpace = 'nowrap';
  const once = el.getBoundingClientRect().height;
  el.style.whiteSpace = '';
  return tall === once;
}"""
# The label fits its key: nothing cut off or spilling over.
FITS = "(el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight"


def speaking(page, base: str, language: str) -> None:
    page.context.add_cookies([{"name": "lang", "value": language, "url": base}])


@pytest.mark.parametrize("language, names", [
    ("de", {"MJ": "Mah Jong", "DOG": "Hund", "PH": "Phönix", "DR": "Drache"}),
    ("en", {"MJ": "Mah Jong", "DOG": "Dog", "PH": "Phoenix", "DR": "Dragon"}),
])
def test_the_referee_keys_name_the_special_cards_in_the_readers_language(
        live_server, phone, language, names):
    page = phone
    speaking(page, live_server, language)
    page.goto(live_server + "/referee?hand=PH")
    for card, name in names.items():
        key = page.locator(f".pick[data-card='{card}']")
        assert " ".join(key.inner_text().split()) == name
        assert key.get_attribute("aria-label") == name
        assert key.evaluate(FITS), f"{name} does not fit its key"
    assert page.text_content("[data-slot='hand'] .chips") == names["PH"]  # drawn by the server
    page.tap("label[for='target-play']")
    page.tap(".pick[data-card='DOG']")  # drawn by the script
    assert page.text_content("[data-slot='play'] .chips") == names["DOG"]
    shot(page, f"referee-keys-{language}")
    assert not page.errors


def test_the_german_match_page_fits_a_phone(live_server, phone):
    page = phone
    speaking(page, live_server, "de")
    page.goto(live_server + "/matches/new")
    for tab in page.locator(".variant-tabs a").all():  # "3 + Strohma|nn" once
        assert tab.evaluate(ONE_LINE), tab.inner_text()
    for seat, name in enumerate(["Hans", "Bob", "Cy", "Dee"]):
        page.fill(f"#seat_{seat}", name)
    page.tap("button.primary.big[type=submit]")
    page.wait_for_selector(".first-btn")
    page.tap(".first-btn >> nth=1")
    page.wait_for_selector(".out-buttons:not([hidden])")
    page.tap(".quick button[data-set='30']")
    page.tap("button[type=submit]")
    page.wait_for_selector("text=Runde 1 gespeichert.")
    heading = page.locator("#first-out-title")
    assert heading.inner_text() == "Runde 2: Erste(r) raus?"
    assert heading.evaluate(ONE_LINE)
    assert "Bob als Erste(r) raus" in page.inner_text("table")
    assert "Als Nächstes mischt " in page.inner_text("main")  # who shuffles, not "Geber"
    undo = page.locator("button:has-text('Runde 1 rückgängig')")
    assert undo.evaluate(ONE_LINE)
    shot(page, "match-de")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.errors
