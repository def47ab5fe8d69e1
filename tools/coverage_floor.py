"""Hold the coverage floors: 95 % of lines and 90 % of branches, each on its own (coverage's
own `fail_under` sees only the two combined). Reads the data file the test runs left
(`.coverage`, every test process combined), prints both figures and exits 1
when either is below its floor. Used by .ci/run."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import coverage

FLOORS = {"lines": 95.0, "branches": 90.0}


def figures(data_file: str = ".coverage") -> dict[str, float]:
    cov = coverage.Coverage(data_file=data_file)
    cov.load()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        cov.json_report(outfile=str(out))
        totals = json.loads(out.read_text())["totals"]
    return {"lines": 100 * totals["covered_lines"] / max(totals["num_statements"], 1),
            "branches": 100 * totals["covered_branches"] / max(totals["num_branches"], 1)}


def main() -> int:
    found = figures(*sys.argv[1:])
    low = [kind for kind, floor in FLOORS.items() if found[kind] < floor]
    for kind, floor in FLOORS.items():
        print(f"coverage of {kind}: {found[kind]:.1f} % (floor {floor:.0f} %)")
    if low:
        print(f"coverage below the floor: {', '.join(low)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
