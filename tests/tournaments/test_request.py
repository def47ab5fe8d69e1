"""Reading a draw request: any JSON is either a request (with its problems) or a BadShape
naming a field; never another exception (the API's 400 and 422, never a 500); and a
request without problems is drawn."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tichu_scorer.tournaments.draw import draw
from tichu_scorer.tournaments.request import BadShape, read

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["players", "rounds", "seed", "history", "tables", "byes", "x", ""]),
        inner, max_size=4),
    max_leaves=30)
NAMES = st.lists(st.text(max_size=4), max_size=8)
GOOD_NAMES = st.lists(st.text(min_size=1, max_size=4).filter(str.strip), min_size=4, max_size=9,
                      unique_by=lambda n: n.strip().casefold())
ROUND = st.fixed_dictionaries({"tables": st.lists(st.lists(st.text(max_size=3), min_size=3,
                                                           max_size=5), max_size=3)},
                              optional={"byes": st.none() | NAMES})
BODY = st.fixed_dictionaries({"players": GOOD_NAMES | NAMES | JSON,
                              "rounds": st.integers(-3, 25) | JSON},
                             optional={"seed": st.integers() | JSON,
                                       "history": st.lists(ROUND | JSON, max_size=3) | JSON})


@settings(max_examples=300, deadline=None)
@given(body=BODY | JSON)
def test_any_json_is_a_request_or_a_bad_shape_naming_a_field(body):
    try:
        request, problems = read(body)
    except BadShape as exc:
        assert exc.field and exc.message
        return
    assert all(p.rule == "TN1" and p.field and p.message for p in problems)
    fine = 4 <= len(request.players) <= 256 and 1 <= request.rounds <= 20 \
        and len({n.strip().casefold() for n in request.players}) == len(request.players) \
        and all(n.strip() for n in request.players)
    if not fine:
        assert problems
    if not problems:  # a request without problems is drawn, whatever its history holds
        made = draw(request.players, request.rounds, request.seed or 0, request.history)
        for one in made.rounds:
            seated = [n for table in one.tables for n in table]
            assert sorted(seated + list(one.byes)) == sorted(request.players)


@st.composite
def valid_bodies(data):
    """A draw request without problems: distinct names and a history in which players
    left (gone…), arrived (those never seated) and sat out, each name once a round."""
    players = data(GOOD_NAMES)
    pool = [*players, "gone1", "gone2"]
    history = []
    for _ in range(data(st.integers(0, 3))):
        order = data(st.permutations(pool))
        tables = data(st.integers(1, len(order) // 4))
        byes = data(st.integers(0, len(order) - 4 * tables))
        history.append({"tables": [order[4 * t:4 * t + 4] for t in range(tables)],
                        "byes": order[4 * tables:4 * tables + byes]})
    return {"players": players, "rounds": data(st.integers(1, 8)),
            "seed": data(st.integers(-2**70, 2**70)), "history": history}


@settings(max_examples=100, deadline=None)
@given(body=valid_bodies())
def test_a_request_without_problems_is_drawn_fairly(body):
    request, problems = read(body)
    assert problems == []
    made = draw(request.players, request.rounds, request.seed, request.history)
    players = list(request.players)
    sat_out = {p: sum(p in r["byes"] for r in body["history"]) for p in players}
    for one in made.rounds:
        seated = [n for table in one.tables for n in table]
        assert sorted(seated + list(one.byes)) == sorted(players)
        assert len(one.byes) == len(players) % 4
        if one.byes:  # [TN2] with the history counted
            assert max(sat_out[b] for b in one.byes) <= min(
                sat_out[p] for p in players if p not in one.byes)
        for b in one.byes:
            sat_out[b] += 1
