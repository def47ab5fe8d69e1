"""Tournaments (RULES.md §10.2). Pure, like the scoring core (tests/test_purity.py): the
formats (`formats`: each format an object with the same hooks), the draw of an individual
tournament (`draw`), the pairing of a pairs tournament (`pairing`), the standing
(`standings`) and the API's draw request (`request`). Glue, with the database: the
director's writes (`director`), a round drawn and stored (`drawing`) and a tournament's
tables and standing read (`stored`)."""
