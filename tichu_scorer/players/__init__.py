"""The players of a table: people, not the strings typed at it.

`rows.Player` is a person of one table, reused across its matches; its `key` is the public
id of the player's page and of every link to it (no sequential id leaves the app).
"""
