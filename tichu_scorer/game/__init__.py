"""The vocabulary both pure cores share (a leaf: it imports neither of them): the ways of
playing and their seatings (`variants`, `layouts`) and the core's translatable text
(`i18n`). `engine/` and `scoring/` both import it and never each other."""
