"""The scoring phone stays awake while its match is open (issue 36, item 7), at 360×640:
its match page asks for a screen wake lock (navigator.wakeLock stubbed in the page to keep
what was asked), asks again when the page is shown again, and the More menu's toggle lets
it go and is remembered on the phone; a viewer's page asks for nothing. In English on a
light phone and in German on a dark one (test-artifacts/wake-*.png)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LOOKS, PHONE, dress, shot, start_match, until

LABEL = {"en": "Keep the screen on", "de": "Bildschirm anlassen"}
# The Screen Wake Lock API, stubbed: each request and release is logged in window.wakeLog.
WAKE_LOCK = """
window.wakeLog = [];
Object.defineProperty(navigator, "wakeLock", {value: {request: async (type) => {
  const listeners = [];
  const sentinel = {type, released: false,
    addEventListener: (name, listener) => listeners.push(listener),
    release: async () => { sentinel.released = true; window.wakeLog.push("release");
                           listeners.forEach((listener) => listener()); }};
  window.wakeLog.push("request:" + type);
  window.sentinel = sentinel;
  return sentinel;
}}});
"""


def log(page) -> list[str]:
    return page.evaluate("window.wakeLog")


@pytest.mark.parametrize("language, theme", LOOKS)
def test_the_scoring_phone_keeps_its_screen_on_until_told_not_to(live_server, phone,
                                                                  new_context, language,
                                                                  theme):
    page = phone
    page.add_init_script(WAKE_LOCK)
    url = start_match(page, live_server)
    dress(page, live_server, language, theme)
    page.reload()
    until(page, "() => window.wakeLog.includes('request:screen')", what="the lock asked for")
    page.tap("summary:has-text('%s')" % ("More" if language == "en" else "Mehr"))
    toggle = page.locator("[data-wake]")
    toggle.wait_for()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert toggle.text_content() == "✓ " + LABEL[language]
    shot(page, f"wake-{language}-{theme}")
    # the browser lets the lock go while the page is hidden; shown again, it is asked again
    page.evaluate("window.sentinel.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    until(page, "() => window.wakeLog.filter((e) => e === 'request:screen').length === 2",
          what="the lock asked for again")
    # the toggle lets it go, and the phone remembers
    toggle.tap()
    until(page, "() => window.wakeLog.at(-1) === 'release'", what="the lock let go")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.text_content() == LABEL[language]
    page.reload()
    until(page, "() => window.tichuWake === true", what="wake.js loaded")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert log(page) == []
    page.tap("summary:has-text('%s')" % ("More" if language == "en" else "Mehr"))
    page.locator("[data-wake]").tap()
    until(page, "() => window.wakeLog.includes('request:screen')", what="on again")
    assert page.evaluate("localStorage.getItem('tichu-wake')") == "on"
    # a viewer of the match keeps no screen on and has no toggle
    page.goto(url + "/share")
    code = page.get_attribute("[data-code]", "data-code")
    viewer = new_context(**PHONE).new_page()
    viewer.add_init_script(WAKE_LOCK)
    viewer.goto(f"{live_server}/v/{code}")
    viewer.wait_for_selector("[data-live-match]", state="attached")
    until(viewer, "() => performance.getEntriesByType('resource').some("
          "(e) => e.name.includes('/js/live.js'))", what="live.js loaded")
    assert viewer.locator("[data-wake]").count() == 0 and log(viewer) == []
    assert viewer.locator("script[src*='wake.js']").count() == 0
    assert page.errors == []

