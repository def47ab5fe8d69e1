"""The differential harness of the enumerator: `legal_plays` answers 3,024 seeded positions
of every kind (`plays_cases`) play for play, in order, as the enumerator before issue 38's
item 3 did (commit 1967ec7, `plays_digests.txt`)."""

from pathlib import Path

from tests.engine import plays_cases

KEPT = (Path(__file__).parent / "plays_digests.txt").read_text().split()


def test_every_enumeration_equals_the_former_enumerators():
    differ = [(i, p) for i, (p, kept) in enumerate(zip(plays_cases.positions(), KEPT,
                                                       strict=True))
              if plays_cases.digest(p) != kept]
    assert len(KEPT) == plays_cases.COUNT + 4 * len(plays_cases.WORST)
    assert not differ, f"{len(differ)} enumerations differ, the first: {differ[0]}"
