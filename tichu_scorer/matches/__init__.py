"""The match feature: everything between a request about a match and its rows, one concern
per module. The pure rules live in `scoring/`; these modules read a match's rows into the
core's types, ask its `MatchState`, and write the result back.

- `writes`: transactions and locks (the one way into a write), conflicts, the match log
- `prebuilt`: the performance machinery (prebuilt statements, stamps), behind a few functions;
  `at_once`: on PostgreSQL, a new hand's writes in one statement
- `roster`: tables, players and seats
- `creation`: a new match, a rematch, a match deleted
- `hand_entry`: a hand previewed, scored and added
- `ending`: the derived columns and the end-of-match rules corrections must keep
- `corrections`: editing, deleting, undoing and restoring hands; the log's summaries
- `settings`: the target and names changed after the start
- `closing`: a tournament's table once its round is closed ([TN5]), and its reopenings
- `listing`: the match lists, a page at a time; `match_log`: the log page, likewise
- the match page along one path: `hand_reads` (the hands read as values), `match_view`
  (the view models), `chart`, `kept_pages` (kept per revision), `repeat_views` (its ETag;
  a repeat view answered before Flask: 304, or the same reader's kept response, counted by
  its route's limits, `early_limits`); its rows and regions are
  drawn by the pure `hand_rows` and `regions`, which the phone's core draws with too
"""
