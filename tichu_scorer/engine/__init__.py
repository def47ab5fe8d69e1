"""The pure rules engine (RULES.md §1, §3–§6): cards, combinations, the plays a hand can make
(the wish included), and the referee. No Flask, SQLAlchemy or WTForms import, ever."""

from .budget import Budget, OutOfTime
from .cards import DECK, Card, NotationError, parse_card, parse_cards, parse_rank, show
from .combos import Combination, Kind, beats, readings
from .plays import Table, legal_plays
from .referee import Question, QuestionError, Verdict, judge, parse_question, question
from .wish import wish_play

__all__ = ["DECK", "Card", "NotationError", "parse_card", "parse_cards", "parse_rank", "show",
           "Combination", "Kind", "beats", "readings", "Table", "legal_plays", "wish_play",
           "Question", "QuestionError", "Verdict", "judge", "parse_question", "question",
           "Budget", "OutOfTime"]
