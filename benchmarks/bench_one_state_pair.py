"""The save path's scoring and the phone's preview of another checkout against this one,
alternating in one process (as `bench_match_state_pair.py`): a new hand scored against a
match known by its stored columns, before as `answers.MatchFacts`, now as the serialised
`MatchState`.

Usage: python benchmarks/bench_one_state_pair.py OLD_TREE [rounds]

Per game, a match after 30 hands (its totals, the house rules of a club for the points
games) and a next hand: "save" is what `hand_entry.score` runs for a new hand (the state
of the stored columns, the hand read and scored, its row's values); "preview" is the
phone's `preview` op (the page's data-facts read back, then `answers.preview`, with the
form's derived note). Each is timed `rounds` times per code in turn with the garbage
collector off; the fastest run counts, in µs of the process's CPU time.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_match_state_pair import beside  # noqa: E402

CASES = {  # facts as the page lists them, the next hand's body
    "nanking": (["nanking", ["Ann", "Bob", "Cy", "Dee"], 1000, None, 30, [820, 640], False,
                 {"double_victory_points": 100, "victory_points": True}, None, [31, 29]],
                {"out_order": [1, 0, 3], "calls": {"1": "tichu"}, "card_points": [None, 35]}),
    "threechu": (["threechu", ["Tom", "Uma", "Vic", "Dummy"], None, 40, 30,
                  [900, 700, 800, 600], False],
                 {"out_order": [2, 0], "card_points": [25, None]}),
    "tientsin": (["tientsin", list("ABCDEF"), 1000, None, 30, [700, 500], False],
                 {"out_order": [5, 0, 1, 2, 3], "card_points": [None, 40]}),
    "seigneur": (["seigneur", ["Al", "Bo", "Cy", "Di", "Ed"], None, None, 30, [], False],
                 {"out_order": [0, 1, 2, 3]}),
}


def calls(pkg: str, reader: str) -> dict[str, Any]:
    """The two paths in one code: `reader` reads the page's facts as the stored columns'
    state (the old `answers.MatchFacts.from_dict`, the new `MatchState.from_dict`)."""
    answers = importlib.import_module(f"{pkg}.answers")
    module, name = reader.rsplit(".", 1)
    read = getattr(importlib.import_module(f"{pkg}.{module}"), name).from_dict

    def save(listed: list[Any], body: dict[str, Any]) -> Any:
        return answers.score_next(read(listed), body)  # as hand_entry: the stored columns

    def preview(listed: list[Any], body: dict[str, Any]) -> Any:
        return answers.preview(read(listed), body)
    return {"save": save, "preview": preview}


def main() -> None:
    old_tree = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    clock = time.process_time_ns
    with beside(old_tree, f"{rounds} rounds, best µs of CPU"):
        codes = {"old": calls("tichu_old", "answers.MatchFacts"),
                 "new": calls("tichu_scorer", "scoring.state.MatchState")}
        for kind in ("save", "preview"):
            for key, (listed, body) in CASES.items():
                answers = {name: paths[kind](listed, body) for name, paths in codes.items()}
                assert str(answers["old"]) == str(answers["new"]), (kind, key, answers)
                best = dict.fromkeys(codes, float("inf"))
                for _ in range(rounds):
                    for name, paths in codes.items():
                        run = paths[kind]
                        start = clock()
                        for _k in range(10):
                            run(listed, body)
                        best[name] = min(best[name], (clock() - start) / 10)
                print(f"{kind:8} {key:9} old {best['old'] / 1000:7.1f}  "
                      f"new {best['new'] / 1000:7.1f}  new/old {best['new'] / best['old']:.2f}")


if __name__ == "__main__":
    main()
