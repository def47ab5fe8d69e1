"""The match log page of the largest import allowed: its size and CPU per request.

    .venv/bin/python benchmarks/log_page.py [entries]

Imports one match whose log holds `entries` edits (default: the import's limit per match),
then opens its log page five times and prints the bytes of the page and the CPU time of
the median request (process time, so the machine's other load counts little).
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tichu_scorer import create_app  # noqa: E402
from tichu_scorer.extensions import db  # noqa: E402
from tichu_scorer.models import Match  # noqa: E402


def worst_import(entries: int) -> dict[str, object]:
    """One match, one hand, and `entries` log lines: edits of every field, said anew in words
    on every view (the stored summary is left empty: the file must stay under 4 MiB)."""
    hand = {"number": 1, "out_order": [0, 1], "calls": {"0": "tichu"},
            "card_points": [50, None]}
    edit = {"hand_number": 1, "position": 1, "action": "edited",
            "before": {"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [50, 50],
                       "wish_penalty": {"offender": 2}},
            "after": {"out_order": [1, 0], "calls": {"1": "grand"}, "card_points": [40, 60],
                      "wish_penalty": None}}
    return {"format": "tichu-scorer", "version": 1, "matches": [{
        "variant": "nanking", "target": 1000, "players": ["A" * 40, "B" * 40, "C" * 40,
                                                          "D" * 40],
        "hands": [hand], "log": [edit] * entries}]}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench",
                          "RATELIMIT_ENABLED": False, "PAGE_STORE_URI": "",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db"},
                         instance_path=f"{folder}/instance")
        with app.app_context():
            db.create_all()
        try:
            from tichu_scorer.transfer.checks import MAX_IMPORT_EVENTS as limit
        except ImportError:  # before the checks had a module of their own
            limit = 20_000
        entries = int(sys.argv[1]) if len(sys.argv) > 1 else limit
        client = app.test_client()
        blob = json.dumps(worst_import(entries), separators=(",", ":")).encode()
        print(f"import: {len(blob) / 1e6:.2f} MB")
        r = client.post("/import", data={"file": (io.BytesIO(blob), "x.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 303, r.get_data(as_text=True)[-500:]
        with app.app_context():
            url = db.session.execute(db.select(Match.key)).scalar_one()
        sizes, times = [], []
        for _ in range(5):
            started = time.process_time()
            page = client.get(f"/matches/{url}/log")
            times.append(time.process_time() - started)
            assert page.status_code == 200, page.get_data(as_text=True)[-800:]
            sizes.append(len(page.get_data()))
        print(f"{entries} entries: {sizes[0] / 1e6:.3f} MB, "
              f"{statistics.median(times):.3f} s CPU per request")
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
