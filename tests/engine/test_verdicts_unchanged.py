"""The differential harness: the referee's answers to 8,000 seeded questions of every kind
(`verdict_cases`) equal, digest for digest, those of the referee before its fast paths and
lazily written reasons (commit 360e84d, `verdict_digests.txt`): every verdict's JSON with
its reason and reading read, every refusal's field and message."""

from pathlib import Path

from tests.engine import verdict_cases

KEPT = (Path(__file__).parent / "verdict_digests.txt").read_text().split()


def test_every_answer_equals_the_former_referees():
    differ = [(i, q, verdict_cases.answer(q))
              for i, (q, kept) in enumerate(zip(verdict_cases.questions(), KEPT, strict=True))
              if verdict_cases.digest(q) != kept]
    assert len(KEPT) == verdict_cases.COUNT
    assert not differ, f"{len(differ)} answers differ, the first: {differ[0]}"
