"""The pure core imports no web or database package (STYLE.md habit 1), and its parts
import in one direction: `engine/` and `scoring/` both import `game/`, never each other."""

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tichu_scorer"

FORBIDDEN = ("flask", "flask_sqlalchemy", "flask_wtf", "wtforms", "sqlalchemy", "werkzeug")


CORE = ("tichu_scorer.scoring", "tichu_scorer.engine", "tichu_scorer.game")
# Every module of tournaments/ (its formats included) is pure but the glue that stores a
# tournament (director, drawing, stored) and the forms: a new one is checked unnamed.
GLUE = ("__init__", "director", "drawing", "stored", "forms")
TOURNAMENTS = tuple(
    "tichu_scorer." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
    .removesuffix(".__init__")
    for path in sorted((PACKAGE / "tournaments").rglob("*.py"))
    if path.parent != PACKAGE / "tournaments" or path.stem not in GLUE)


def imported_alone(module, tmp_path, also):
    """Import `module` alone in a fresh interpreter: its file, and which of the modules
    `also` names it loaded."""
    code = (f"import sys, importlib; print(importlib.import_module({module!r}).__file__); "
            f"print(','.join(m for m in {also!r} if m in sys.modules))")
    # Import the core module alone, bypassing tichu_scorer/__init__ (which builds the app),
    # from this checkout's package whatever the current directory (run from an empty one).
    shim = ("import sys, types; pkg = types.ModuleType('tichu_scorer'); "
            f"pkg.__path__ = [{str(PACKAGE)!r}]; sys.modules['tichu_scorer'] = pkg; ")
    out = subprocess.run([sys.executable, "-c", shim + code], capture_output=True, text=True,
                         check=True, cwd=tmp_path)
    imported, found = out.stdout.splitlines()
    assert Path(imported).is_relative_to(PACKAGE)  # this checkout's core, not another copy
    return found


@pytest.mark.parametrize("module", [*CORE, "tichu_scorer.scoring.state", "tichu_scorer.answers",
                                    "tichu_scorer.scoring.games", "tichu_scorer.progression",
                                    "tichu_scorer.waiting", "tichu_scorer.regions",
                                    "tichu_scorer.hand_rows",
                                    *TOURNAMENTS, "tichu_scorer.ratings"])
def test_core_imports_no_web_or_database_package(module, tmp_path):
    assert imported_alone(module, tmp_path, FORBIDDEN) == ""


@pytest.mark.parametrize("module, never", [
    ("tichu_scorer.engine", ("tichu_scorer.scoring",)),
    ("tichu_scorer.scoring", ("tichu_scorer.engine",)),
    ("tichu_scorer.game", ("tichu_scorer.engine", "tichu_scorer.scoring")),
])
def test_the_core_imports_in_one_direction(module, never, tmp_path):
    assert imported_alone(module, tmp_path, never) == ""
