"""The whole package type-checks (mypy --strict) and the code passes the linter."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_core_type_checks():
    pytest.importorskip("mypy", reason="mypy is installed by the test extras")
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_lint_clean():
    if shutil.which("ruff", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("ruff is installed by the test extras")
    result = _run("ruff", "check", ".")  # every Python file, migrations included
    assert result.returncode == 0, result.stdout + result.stderr
