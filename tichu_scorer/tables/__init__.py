"""A table and its people: who may see and change what (`access`: members, scorers, a
tournament table's score code, viewer links), the codes and links that let a phone in
(`codes`), whose phone this is (`phones`: a name in a cookie, written into the match log),
and an evening at a table (`evenings`, pure: tonight's matches added up and who sits out
next)."""
