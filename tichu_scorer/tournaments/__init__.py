"""Tournaments (RULES.md §10.2). `draw` is pure, like the scoring core
(tests/test_purity.py): it imports no web or database package."""
