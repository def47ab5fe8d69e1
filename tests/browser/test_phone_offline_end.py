"""A match played to its end without signal: the phone's core draws the page the server
will draw once the hands arrive (tichu_scorer/core/waiting.py, regions.py): the winner and no
next hand, the hands played, the rows with their running totals; an Undo of the waiting
hand that ended it brings the next hand back. Then the signal comes back, and the
server's page is the one the phone drew. English and light, German and dark."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, shot
from tests.browser.test_phone_core_offline import CHART, lose_signal_ready, tap_hand
from tests.browser.test_phone_offline import send_waiting

# The phone keeps and runs the offline core here (tests/browser/conftest.py)
pytestmark = pytest.mark.core

WORDS = {
    "en": {"wins": "Team A wins!", "played": "{n} hands played", "saved": "Hand 1 saved.",
           "next": "Hand 5: who went out first?", "later": "Rematch once the signal is back.",
           "undo": "Undo hand 5", "rematch": "Rematch"},
    "de": {"wins": "Team A gewinnt!", "played": "{n} Runden gespielt",
           "saved": "Runde 1 gespeichert.", "next": "Runde 5: Erste(r) raus?",
           "later": "Revanche, sobald wieder Netz da ist.", "undo": "Runde 5 rückgängig",
           "rematch": "Revanche"},
}

# The match page's regions as a player reads them: the totals, the line with the hands
# played and who shuffles next, the end or the next hand, the rows (without the phone's
# mark of a hand not sent yet, nor a stored hand's pencil); the Rematch (the server's) or
# its note (the phone's) apart
REGIONS = """() => {
  const text = (e) => (e ? e.textContent.replace(/\\s+/g, ' ').trim() : null);
  const region = (name) => document.querySelector(`[data-region=${name}]`);
  const without = (e, q) => {
    const c = e.cloneNode(true);
    c.querySelectorAll(q).forEach((x) => x.remove());
    return c;
  };
  const outcome = region('outcome');
  return {
    totals: text(region('totals')), meta: text(region('meta')),
    outcome: text(without(outcome, 'form, p.hint')),
    action: text(outcome.querySelector('form, p.hint')),
    next: document.querySelectorAll('.first-btn, .other-hand').length,
    shuffler: document.querySelectorAll('.shuffler').length,
    rows: Array.from(document.querySelectorAll('table.hands tbody tr'),
                     (tr) => text(without(tr, '.waiting-mark, .edit-link [aria-hidden]'))),
    running: Array.from(document.querySelectorAll('table.hands tbody tr'),
                        (tr) => Array.from(tr.querySelectorAll('.running'), text).join(' ')),
  };
}"""


def save_offline(page, match_url, hand) -> None:
    page.goto(match_url + "/hands/new")
    tap_hand(page, *hand)
    page.wait_for_selector(".preview .scored-here", timeout=60000)  # the core's first start
    page.tap("button[type=submit]")
    page.wait_for_url(match_url + "*")


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("de", "dark")])
def test_a_match_ended_without_signal_is_the_page_the_server_draws(live_server, new_context,
                                                                   lang, scheme):
    words = WORDS[lang]
    page = new_context(**PHONE, locale="de-DE" if lang == "de" else "en-US",
                       color_scheme=scheme).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server + "/")
    page.goto(live_server + "/matches/new")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        page.fill(f"#seat_{seat}", name)
    page.locator("label[for='target-1']:visible").tap()  # to 500
    page.tap("form button[type=submit]")
    page.wait_for_selector(".first-btn")
    match_url = page.url.split("?")[0].split("#")[0]
    page.tap(".other-hand")
    tap_hand(page, 1, 3, None)  # hand 1, stored: Bob and Dee's double victory, 0 : 200
    page.tap("button[type=submit]")
    page.wait_for_selector("text=" + words["saved"])
    lose_signal_ready(page, match_url)

    save_offline(page, match_url, (0, 1, "75"))  # hand 2: A 75, B 25: 75 : 225
    save_offline(page, match_url, (0, 2, None))  # hand 3: A's double victory: 275 : 225
    save_offline(page, match_url, (2, 0, None))  # hand 4: again: 475 : 225, not yet over
    page.wait_for_selector("tr.waiting >> nth=2")
    save_offline(page, match_url, (0, 2, None))  # hand 5: 675 : 225, the match is over
    page.wait_for_selector("tr.waiting >> nth=3")
    page.wait_for_selector("[data-region=outcome] .banner", timeout=60000)
    here = page.evaluate(REGIONS)
    assert words["wins"] in here["outcome"] and here["action"] == words["later"]
    assert here["next"] == 0 and here["shuffler"] == 0  # no next hand, nobody shuffles
    assert words["played"].format(n=5) in here["meta"]
    assert "675" in here["totals"] and "225" in here["totals"]
    assert len(here["rows"]) == 5 and all(here["running"])  # each row its running totals
    assert here["running"][0].split() == ["675", "225"]
    page.wait_for_selector("figure.chart.provisional")
    chart = page.evaluate(CHART)
    shot(page, f"core-offline-end-{lang}-{scheme}")
    other = "dark" if scheme == "light" else "light"
    page.emulate_media(color_scheme=other)
    shot(page, f"core-offline-end-{lang}-{other}")
    page.emulate_media(color_scheme=scheme)

    # Undo takes the waiting hand that ended it back: the next hand comes back
    page.tap(f"form[data-undo] button:has-text('{words['undo']}')")
    page.wait_for_selector(".first-btn")
    back = page.evaluate(REGIONS)
    assert words["next"] in back["outcome"] and back["shuffler"] == 1
    assert words["played"].format(n=4) in back["meta"] and len(back["rows"]) == 4
    assert back["running"][0].split() == ["475", "225"]
    save_offline(page, match_url, (0, 2, None))  # hand 5 again: over again
    page.wait_for_selector("[data-region=outcome] .banner", timeout=60000)
    page.wait_for_selector("tr.waiting >> nth=3")
    assert page.evaluate(REGIONS) == here

    page.context.set_offline(False)
    send_waiting(page)
    page.wait_for_selector("#outbox", state="hidden", timeout=30000)
    page.goto(match_url)
    served = page.evaluate(REGIONS)
    assert not page.locator("tr.waiting").count()
    assert served["action"] == words["rematch"]
    assert served | {"action": here["action"]} == here  # the server's page, as the phone drew it
    assert page.evaluate(CHART) == chart | {"provisional": False}
    assert errors == []
