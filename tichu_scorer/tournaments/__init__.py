"""Tournaments (RULES.md §10.2). `draw` (individual tournaments) and `pairing` (pairs
tournaments) are pure, like the scoring core (tests/test_purity.py): they import no web or
database package."""
