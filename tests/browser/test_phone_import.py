"""Importing on a phone: a refused file's reason is on screen, not below the fold."""

from __future__ import annotations

import json

from tests.browser.conftest import shot
from tests.views.test_transfer import decided_early, synthetic_history


def test_a_refused_import_opens_at_its_reason(live_server, phone, tmp_path):
    bad = tmp_path / "decided.json"
    bad.write_text(json.dumps(decided_early()))
    phone.goto(live_server + "/import")  # a fresh phone: its home page only links here
    phone.set_input_files("#import-file", str(bad))
    phone.locator("form:has(#import-file) button[type=submit]").tap()
    error = phone.locator("#import-error")
    error.wait_for()
    assert "(E1)" in error.inner_text()
    box = error.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 640, box
    assert phone.locator("#import-file").get_attribute("aria-describedby") == "import-error"
    shot(phone, "import-refused")
    assert not phone.errors, phone.errors


def test_an_accepted_import_leaves_the_refusal_anchor(live_server, phone, tmp_path):
    """The form posts to #import-error (a refusal in view); a success lands at the message,
    not at that fragment, and a second import of the file says it was all already here."""
    good = tmp_path / "history.json"
    good.write_text(json.dumps(synthetic_history(matches=2, hands=3)))
    phone.goto(live_server + "/import")  # a fresh phone's home page has no file picker
    for expected in ("2 new matches, 0 already here", "0 new matches, 2 already here"):
        phone.set_input_files("#import-file", str(good))
        phone.locator("form:has(#import-file) button[type=submit]").tap()
        phone.locator(".flash", has_text=expected).wait_for()
        assert not phone.url.endswith("#import-error"), phone.url
        assert phone.locator("#import-error").count() == 0
        box = phone.locator(".flash").bounding_box()
        assert box is not None and 0 <= box["y"] <= 640, box
    shot(phone, "import-twice")
    assert not phone.errors, phone.errors
