"""Extract every translatable string, merge the German catalog, compile it.

    .venv/bin/python tools/translations.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parent))
from de import DE, PLURALS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tichu_scorer" / "translations"
POT = FOLDER / "messages.pot"
PO = FOLDER / "de" / "LC_MESSAGES" / "messages.po"


def main() -> int:
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(pybabel), "extract", "-F", "babel.cfg", "-k", "_l", "-k", "N_",
                    "--no-location", "--sort-output", "--omit-header",
                    "--ignore-dirs", ".*", "-o", str(POT), "."],
                   cwd=ROOT, check=True, capture_output=True)
    template = read_po(POT.open("rb"))
    template.locale = "de"  # type: ignore[assignment]
    missing = []
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            found = PLURALS.get(message.id[0])
            if found:
                message.string = found
            else:
                missing.append(message.id[0])
        elif message.id in DE:
            message.string = DE[message.id]
        else:
            missing.append(message.id)
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as out:
        write_po(out, template, omit_header=False, sort_output=True, no_location=True)
    with (PO.parent / "messages.mo").open("wb") as out:
        write_mo(out, template)
    for text in missing:
        print("missing German:", text)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
