"""A result to share (issue 36, item 6): the final sheet of a match, an evening at a table
and a tournament's standing, each as plain text and as a PNG image, in the reader's
language. `sheet` is the result's shape and its text, `build` reads it from the database,
`drawing` draws it (Pillow, with the DejaVu fonts vendored in `fonts/`)."""
