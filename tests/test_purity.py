"""The pure core imports no web or database package (STYLE.md habit 1)."""

import subprocess
import sys

import pytest

FORBIDDEN = ("flask", "flask_sqlalchemy", "flask_wtf", "wtforms", "sqlalchemy", "werkzeug")


@pytest.mark.parametrize("module", ["tichu_scorer.scoring", "tichu_scorer.engine"])
def test_core_imports_no_web_or_database_package(module):
    code = (f"import sys, importlib; importlib.import_module({module!r}); "
            f"print(','.join(m for m in {FORBIDDEN!r} if m in sys.modules))")
    # Import the core module alone, bypassing tichu_scorer/__init__ (which builds the app).
    shim = ("import sys, types, pathlib; pkg = types.ModuleType('tichu_scorer'); "
            "pkg.__path__ = [str(pathlib.Path('tichu_scorer').resolve())]; "
            "sys.modules['tichu_scorer'] = pkg; ")
    out = subprocess.run([sys.executable, "-c", shim + code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""
