"""The pure code imports no web or database package (STYLE.md habit 1), and the phone's core
imports in one direction: `engine/` and `scoring/` both import `game/`, never each other, and
none of the three imports `core/`. What is pure is read from the folders: every module under
`engine/`, `scoring/`, `game/` and `core/`, and under `tournaments/` (its formats included)
all but the glue that stores a tournament, so that a new module is checked unnamed."""

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tichu_scorer"

FORBIDDEN = ("flask", "flask_sqlalchemy", "flask_wtf", "wtforms", "sqlalchemy", "werkzeug")

PURE = ("engine", "scoring", "game", "core", "tournaments")
# tournaments/ but its glue: the director, the draw's transaction, the stored rounds, forms
GLUE = {"tournaments": ("__init__", "director", "drawing", "stored", "forms")}
# Pure modules that sit with their feature, outside the pure folders
ELSEWHERE = ("ratings.py", "fairness.py", "tables/evenings.py", "tables/fair_evening.py")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def pure_modules(folder: str) -> list[str]:
    """The modules of `folder` the purity test imports, found by walking it."""
    glue = GLUE.get(folder, ())
    return [module_name(path) for path in sorted((PACKAGE / folder).rglob("*.py"))
            if path.parent != PACKAGE / folder or path.stem not in glue]


def imported_alone(modules, tmp_path, also):
    """Import `modules` in turn in a fresh interpreter: for each, which of the modules `also`
    names it loaded that none before it had (the first to load one imports it, directly or
    not)."""
    code = ("import sys, importlib, json; found = {}; seen = set()\n"
            f"for name in {modules!r}:\n"
            "    module = importlib.import_module(name)\n"
            f"    assert module.__file__.startswith({str(PACKAGE)!r}), module.__file__\n"
            f"    loaded = [m for m in {also!r} if m in sys.modules and m not in seen]\n"
            "    if loaded: found[name] = loaded; seen.update(loaded)\n"
            "print(json.dumps(found))")
    # Import the core alone, bypassing tichu_scorer/__init__ (which builds the app), from
    # this checkout's package whatever the current directory (run from an empty one).
    shim = ("import sys, types; pkg = types.ModuleType('tichu_scorer'); "
            f"pkg.__path__ = [{str(PACKAGE)!r}]; sys.modules['tichu_scorer'] = pkg\n")
    out = subprocess.run([sys.executable, "-c", shim + code], capture_output=True, text=True,
                         check=True, cwd=tmp_path)
    return out.stdout.strip()


@pytest.mark.parametrize("folder", PURE)
def test_the_pure_folders_import_no_web_or_database_package(folder, tmp_path):
    modules = pure_modules(folder)
    assert len(modules) >= 3  # the folder was read
    assert imported_alone(modules, tmp_path, FORBIDDEN) == "{}"


@pytest.mark.parametrize("path", ELSEWHERE)
def test_the_pure_modules_elsewhere_import_no_web_or_database_package(path, tmp_path):
    assert imported_alone([module_name(PACKAGE / path)], tmp_path, FORBIDDEN) == "{}"


@pytest.mark.parametrize("folder, never", [
    ("engine", ("tichu_scorer.scoring", "tichu_scorer.core")),
    ("scoring", ("tichu_scorer.engine", "tichu_scorer.core")),
    ("game", ("tichu_scorer.engine", "tichu_scorer.scoring", "tichu_scorer.core")),
])
def test_the_core_imports_in_one_direction(folder, never, tmp_path):
    assert imported_alone(pure_modules(folder), tmp_path, never) == "{}"
