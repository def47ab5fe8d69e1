"""A ranking list as a file to keep or publish (a tournament's standing, a season's): JSON,
or CSV with a row per line in the given columns (each cell safe from a spreadsheet's
formulas, `sheet_cell`), sent as an attachment of the given name."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import jsonify
from werkzeug.wrappers import Response

from ..transfer.csv_sheet import sheet_cell


def ranking_file(kind: str, filename: str, columns: Sequence[str],
                 rows: Sequence[Mapping[str, Any]], body: Callable[[], Any]) -> Response:
    """`kind` "json": `body()` as JSON; "csv": `columns`, then `rows` (dicts by column).
    `filename`: without its extension, which is `kind`."""
    if kind == "json":
        response: Response = jsonify(body())
    else:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([sheet_cell(row[c]) for c in columns])
        response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}.{kind}"'
    return response
