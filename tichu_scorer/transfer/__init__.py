"""A table's history in and out: the JSON export (`json_export`, lossless) and its import
(`json_import`: checked whole by `checks` before one short transaction writes it; `known`
skips the matches already here), the CSV sheet (`csv_sheet`), and the export files built once
per revision and served from disk (`exports`)."""
