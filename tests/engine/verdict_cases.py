"""Seeded referee questions of every kind, and a digest of each answer: the harness that
holds the referee's answers (every verdict's `as_dict`, every refusal's field and message)
equal to those of the referee before its fast paths (commit 360e84d), whose digests are
kept in `verdict_digests.txt`.

The questions are drawn with the engine's constructors and `readings` only (never the
enumerator, whose order may change), so that any version of the engine draws the same
ones. To write the digests of another checkout (run from this tree):

    PYTHONPATH=OTHER_CHECKOUT python tests/engine/verdict_cases.py > digests.txt
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

if __name__ == "__main__":  # run as a script: the engine from PYTHONPATH, else this tree
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from tichu_scorer.engine.cards import DECK, DOG_CARD, DR, MJ, PH, SUITS, Card
from tichu_scorer.engine.combos import readings
from tichu_scorer.engine.referee import Question, QuestionError, TrickPlay, judge
from tichu_scorer.game.house import RULE_BOOK, HouseRules

COUNT = 8000
SEED = 360
_HOUSES = (RULE_BOOK, HouseRules(dragon_kept_when_out=True),
           HouseRules(wish_penalty=False), HouseRules(dragon_kept_when_out=True,
                                                      wish_penalty=False))


def _combination(rng: random.Random, cards: list[Card]) -> tuple[Card, ...]:
    """A random set of `cards` that reads as a combination when one is found soon (runs,
    sets and full houses drawn by rank), else any random set."""
    if not cards:
        return ()
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    for _ in range(12):
        shape = rng.random()
        if shape < 0.3:
            pick = [rng.choice(cards)]
        elif shape < 0.55:
            rank = rng.choice(list(by_rank))
            pick = rng.sample(by_rank[rank], min(len(by_rank[rank]), rng.choice((2, 3, 4))))
            if PH in cards and rng.random() < 0.3 and PH not in pick:
                pick.append(PH)
        elif shape < 0.8:
            low, n = rng.randint(1, 10), rng.choice((2, 3, 5, 5, 6, 7))
            pick = [rng.choice(by_rank[r]) for r in range(low, low + n) if r in by_rank]
            if rng.random() < 0.5:  # stairs: a second card a rank where there is one
                pick += [c for r in range(low, low + 3) for c in by_rank.get(r, [])[1:2]]
            if PH in cards and rng.random() < 0.4:
                pick.append(PH)
        else:
            pick = rng.sample(cards, min(len(cards), rng.randint(2, 6)))
        pick = list(dict.fromkeys(pick))
        if readings(pick) or rng.random() < 0.15:
            return tuple(pick)
    return tuple(rng.sample(cards, min(len(cards), 2)))


def _trick(rng: random.Random, rest: list[Card], seat: bool) -> tuple[TrickPlay, ...]:
    """Up to four plays on the table (passes included), each a combination or not: an
    impossible trick is a question too."""
    plays: list[TrickPlay] = []
    pool = list(rest)
    for i in range(rng.choice((0, 1, 1, 1, 2, 3, 4))):
        if i and rng.random() < 0.7:
            plays.append(TrickPlay((), i % 4 if seat else None))
            continue
        cards = _combination(rng, pool)
        pool = [c for c in pool if c not in cards]
        plays.append(TrickPlay(cards, i % 4 if seat else None))
    return tuple(plays)


def draw(rng: random.Random) -> Question:
    """One question: a hand (or none), a trick, a play from the hand (or a pass, or
    a card not in it), a wish, and now and then a variant, house rules or a flag."""
    variant = rng.choice(("nanking",) * 6 + ("threechu", "tientsin", "seigneur"))
    decks = rng.choice((1, 2)) if variant == "seigneur" else 1
    deck = [c for c in DECK if not (variant == "seigneur" and c == DOG_CARD)] * decks
    if decks == 2:
        deck.remove(MJ)
    rng.shuffle(deck)
    size = rng.choice((1, 2, 5, 8, 11, 14, 14, 14))
    if rng.random() < 0.1:  # a dense hand: few ranks, every suit
        ranks = rng.sample(range(2, 15), 4)
        deck = [Card(r, s) for r in ranks for s in SUITS] + [PH, MJ, DR] + deck
        deck = list(dict.fromkeys(deck)) if decks == 1 else deck
    hand, rest = deck[:size], deck[size:]
    if rng.random() < 0.04 and rest:  # a card twice, or held and on the table
        hand.append(rng.choice(rest[:20] + hand))
    seat = rng.random() < 0.3
    trick = _trick(rng, rest, seat)
    if seat and trick and rng.random() < 0.5:  # everyone else passed: back to its owner
        owner = next((t.seat for t in reversed(trick) if t.cards), None)
        trick += tuple(TrickPlay((), s) for s in range(3))
        asked: int | None = owner
    else:
        asked = rng.randint(0, 3) if seat else None
    play = () if rng.random() < 0.2 else _combination(rng, hand)
    if rng.random() < 0.03 and rest:
        play += (rest[-1],)  # a card the hand does not hold
    wish = rng.randint(2, 14) if rng.random() < 0.5 else None
    named = [c.rank for c in hand if c.suit]
    if wish is not None and named and rng.random() < 0.5:
        wish = rng.choice(named)  # the wished rank held more often than by chance
    phoenix_as = rng.randint(2, 14) if PH in play and rng.random() < 0.3 else None
    return Question(
        play=play, trick=trick, hand=tuple(hand) if rng.random() < 0.85 else None, wish=wish,
        out_of_turn=rng.random() < 0.1, seat=asked, variant=variant, decks=decks,
        strict_wish=rng.random() < 0.1, phoenix_as=phoenix_as,
        dummy=variant == "threechu" and rng.random() < 0.3,
        house=rng.choice(_HOUSES) if rng.random() < 0.2 else RULE_BOOK)


def questions(count: int = COUNT, seed: int = SEED) -> Iterator[Question]:
    rng = random.Random(seed)
    for _ in range(count):
        yield draw(rng)


def answer(q: Question) -> str:
    """The referee's answer as canonical JSON: the verdict's `as_dict` with every field
    read (reason, reading), or the refusal's field and message."""
    try:
        v = judge(q)
    except QuestionError as exc:
        return json.dumps({"error": exc.field, "message": exc.message})
    out = v.as_dict()
    out["reading_field"] = v.reading
    out["fulfilling"] = [repr(c) for c in v.fulfilling_play or ()]
    return json.dumps(out, sort_keys=True, ensure_ascii=False)


def digest(q: Question) -> str:
    return hashlib.sha256(answer(q).encode()).hexdigest()[:12]


if __name__ == "__main__":
    for q in questions():
        print(digest(q))
