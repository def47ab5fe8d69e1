"""The phone's own modules: what the server and the phone both answer from the pure
`scoring`, `engine` and `game` packages, in the API's shapes (`answers`), the match page with
hands waiting on the phone (`waiting`) and the page's parts both draw (`regions`, `hand_rows`,
`progression`). Pure (tests/test_purity.py); the phone's core archive holds this package with
those three (views/core.py, docs/OFFLINE_CORE.md)."""
