"""Importing on a phone: a refused file's reason is on screen, not below the fold."""

from __future__ import annotations

import json

from tests.browser.conftest import shot
from tests.views.test_transfer import decided_early


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
