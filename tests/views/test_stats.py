"""Statistics per player and partnership, and the per-match chart."""

import re

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import hand_form, new_match, post_hand
from tests.players.links import unlinked
from tichu_scorer.game.variants import NANKING
from tichu_scorer.matches.chart import build, relative_path
from tichu_scorer.scoring.stats import CountedHand, CountedMatch, tally_match


def test_player_and_partnership_stats():
    hands = (
        CountedHand((0, 2), {0: "tichu"}, (300, 0, 300, 0), (0, 1, 0, 1), True),
        CountedHand((1, 0), {1: "grand", 2: "tichu"}, (-50, 250, -50, 250), (0, 1, 0, 1), False),
        CountedHand((3, 1), {}, (0, 200, 0, 200), (0, 1, 0, 1), True),
    )
    tallied = tally_match(CountedMatch(NANKING, ("Ann", "Bob", "Cy", "Dee"), hands, ("Bob", "Dee"),
                                     True))
    players = tallied.players
    assert (players["Ann"].tichu_called, players["Ann"].tichu_made) == (1, 1)
    assert (players["Cy"].tichu_called, players["Cy"].tichu_made) == (1, 0)
    assert (players["Bob"].grand_called, players["Bob"].grand_made, players["Bob"].won) == \
        (1, 1, 1)
    assert players["Ann"].first_out == 1 and players["Ann"].first_out_percent == 33
    assert players["Dee"].double_victories == 1 and players["Ann"].double_victories == 1
    assert players["Bob"].average_hand == (0 + 250 + 200) / 3
    pairs = tallied.pairs
    assert pairs[("Bob", "Dee")].won == 1 and pairs[("Ann", "Cy")].won == 0
    assert pairs[("Ann", "Cy")].tichu_called == 2 and pairs[("Ann", "Cy")].tichu_made == 1


def test_stats_page(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu", "1": "grand"}))
    post_hand(client, url, hand_form([1, 0], a=30))
    page = unlinked(client.get("/stats?view=cards").get_data(as_text=True))
    assert "Ann" in page and "Ann &amp; Cy" in page and "Bob &amp; Dee" in page
    ann = page[page.index("<h3>Ann</h3>"):page.index("</section>", page.index("<h3>Ann</h3>"))]
    assert "1/1" in ann and "50%" in ann  # Tichu made once; first out in 1 of 2 hands
    bob = page[page.index("<h3>Bob</h3>"):page.index("</section>", page.index("<h3>Bob</h3>"))]
    assert "0/1" in bob  # Grand Tichu failed


def test_empty_stats(client):
    assert "Play a match" in unlinked(client.get("/stats").get_data(as_text=True))


def test_match_chart_marks_calls(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu", "1": "grand"}))
    post_hand(client, url, hand_form([1, 0], a=30))
    page = client.get(url).get_data(as_text=True)
    assert '<svg viewBox="0 0 340 200" role="img"' in page
    assert page.count('<path class="line ') == 2
    assert "hand 1: Ann: Tichu made" in page and "hand 1: Bob: Grand Tichu failed" in page
    assert 'class="target"' in page  # the target (1000) is always inside the chart's range


def test_chart_geometry():
    chart = build([(100, 0), (300, -100)], ["team-a", "team-b"], 1000, [[(0, "x", True)], []])
    xs = [x for x, _y in chart.lines[0][1]]
    assert xs == sorted(xs) and len(xs) == 3
    ys = [y for _x, y in chart.lines[0][1]]
    assert ys[2] < ys[1] < ys[0]  # rising score goes up the chart
    assert chart.target_y is not None and chart.target_y < min(ys)
    assert build([], [], None, []) is None


def test_no_inline_style_in_svg(client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2]))
    page = client.get(url).get_data(as_text=True)
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert not re.search(r"\sstyle=", svg)


def test_a_small_scale_still_has_labels_and_shared_totals_stay_apart():
    """Issue 10: a three-player match scores little per hand (the scale had one label) and
    partners share a total (their lines lay on top of each other)."""
    chart = build([(0, 0, 20, 20), (100, 0, 120, 100)], ["player", "player", "player", "dummy"],
                  None, [[], []])
    assert [v for _y, v in chart.y_labels] == [0, 25, 50, 75, 100, 125][:len(chart.y_labels)]
    assert len(chart.y_labels) >= 3
    finals = [line[-1] for _css, line in chart.lines]
    assert len(set(finals)) == 4  # seats 0 and 3 both at 100: drawn apart
    big = build([(0, 0), (4000, 1000)], ["team-a", "team-b"], 5000, [[], []])
    assert 3 <= len(big.y_labels) <= 7


def stat_card(page: str, title: str) -> dict[str, str]:
    """The figures of one card of the stats page: {term: value with its hint}."""
    start = page.index(f"<h3>{title}</h3>")
    card = page[start:page.index("</section>", start)]
    return {dt: re.sub(r"<[^>]+>", "", dd).strip()
            for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", card)}


def test_threechu_stats(client):
    """Threechu [T3.4]: each player is scored with his side of each hand; the dummy is no
    player and Threechu has no partnerships."""
    r = client.post("/matches/new", data={"variant": "threechu", "seat_0": "Tom",
                                          "seat_1": "Uma", "seat_2": "Vic",
                                          "length": "hands", "hands": "3"})
    assert r.status_code == 303
    url = r.headers["Location"]
    # hand 1 (Tom shuffles): the dummy calls Tichu and goes out first, 50 card points each;
    # hand 2 (Uma shuffles): Tom calls Grand Tichu, Tom and Vic a double victory;
    # hand 3 (Vic shuffles): Vic first, Tom second, Vic and the dummy take 25
    for data in (hand_form([3, 1], {"3": "tichu"}, a=50), hand_form([0, 2], {"0": "grand"}),
                 hand_form([2, 0], a=25)):
        assert post_hand(client, url, data).status_code == 303
    page = unlinked(client.get("/stats?view=cards").get_data(as_text=True))
    assert "<h3>Dummy</h3>" not in page and "Partnerships" not in page
    tom, uma, vic = (stat_card(page, name) for name in ("Tom", "Uma", "Vic"))
    assert tom == {"Matches": "1 played, 1 won", "Tichu": "0/0 —", "Grand Tichu": "1/1 100%",
                   "First out": "33% of 3 hands", "Double victories": "1",
                   "Average hand": "+208.3"}  # (150 + 400 + 75) / 3
    assert uma == {"Matches": "1 played, 0 won", "Tichu": "0/0 —", "Grand Tichu": "0/0 —",
                   "First out": "0% of 3 hands", "Double victories": "0",
                   "Average hand": "+41.7"}  # (50 + 0 + 75) / 3
    assert vic == {"Matches": "1 played, 0 won", "Tichu": "0/0 —", "Grand Tichu": "0/0 —",
                   "First out": "33% of 3 hands", "Double victories": "1",
                   "Average hand": "+158.3"}  # (50 + 400 + 25) / 3


def test_chart_makes_room_for_long_score_labels():
    """A label like "10000" or "-1000" would be clipped at the phone's left edge with the
    usual margin: the plot starts further right, and a short label keeps the margin."""
    usual = build([(100, 0), (300, -100)], ["team-a", "team-b"], 1000, [[], []])
    assert usual.left == 28
    assert usual.lines[0][1][0][0] == 28
    wide = build([(4000, 0), (9000, -100)], ["team-a", "team-b"], 10000, [[], []])
    assert max(len(str(v)) for _y, v in wide.y_labels) == 5
    assert wide.left >= 28 + 6
    assert min(x for x, _y in wide.lines[0][1]) == wide.left
    assert max(x for x, _y in wide.lines[0][1]) == wide.width - 28
    negative = build([(-1200, 1200), (-1500, 1500)], ["team-a", "team-b"], 1000, [[], []])
    assert any(v <= -1000 for _y, v in negative.y_labels) and negative.left > 28


def walk(d: str) -> list[tuple[float, float]]:
    """The absolute points an SVG path of one "M" and relative "l" steps passes through,
    read the way a browser reads it (numbers may start with "." or "-" and touch)."""
    numbers = [float(n) for n in re.findall(r"-?(?:\d+\.?\d*|\.\d+)", d)]
    assert d.startswith("M") and d.count("M") == 1 and d.count("l") == len(numbers) // 2 - 1
    x, y = numbers[0], numbers[1]
    points = [(x, y)]
    for dx, dy in zip(numbers[2::2], numbers[3::2], strict=True):
        x, y = round(x + dx, 1), round(y + dy, 1)
        points.append((x, y))
    return points


@given(st.lists(st.tuples(st.integers(0, 3400), st.integers(-400, 2400),
                          st.floats(-0.04, 0.04), st.floats(-0.04, 0.04)), min_size=1,
                max_size=60))
def test_a_chart_line_drawn_in_relative_steps_passes_through_every_point(tenths):
    """The line is written as relative steps (a long match's steps repeat and compress); the
    steps add up to each point rounded to a tenth, with no drift however long the match."""
    points = [(x / 10 + ex, y / 10 + ey) for x, y, ex, ey in tenths]
    assert walk(relative_path(points)) == [(x / 10, y / 10) for x, y, _ex, _ey in tenths]


def test_a_long_match_chart_costs_little_on_the_wire():
    """200 hands: the two lines compress to a fraction of what absolute points did."""
    import brotli
    running = [(50 * i, 50 * i - 25 * (i % 3)) for i in range(1, 201)]
    chart = build(running, ["team-a", "team-b"], 1000, [[] for _ in running])
    drawn = "".join(d for _css, d in chart.paths)
    absolute = "".join(" ".join(f"{x},{y}" for x, y in line) for _css, line in chart.lines)
    assert [walk(d) for _css, d in chart.paths] == [line for _css, line in chart.lines]
    assert len(brotli.compress(drawn.encode())) * 3 < len(brotli.compress(absolute.encode()))


def test_a_call_marker_sits_on_its_own_sides_line_when_lines_are_drawn_apart():
    """Three players and the dummy: partners share a total and their lines are drawn a
    little apart; each call's marker is on the line of the side that called."""
    running = [(0, 0, 20, 20), (100, 0, 120, 100), (100, 50, 120, 100)]
    calls = [[(3, "dummy", True)], [(0, "Tom", False), (2, "Vic", True)], [(1, "Uma", True)]]
    chart = build(running, ["player", "player", "player", "dummy"], None, calls)
    expected = [(3, 1), (0, 2), (2, 2), (1, 3)]  # (side, point on its line) per marker
    assert [(m.x, m.y) for m in chart.markers] == [chart.lines[side][1][point]
                                                   for side, point in expected]
    # Tom and the dummy both stand at 100 after hand 2: Tom's marker is on his line only
    assert chart.markers[1].y != chart.lines[3][1][2][1]


def test_a_repeat_view_of_unchanged_statistics_is_answered_304(client):
    """The browser's copy of /stats is revalidated by its ETag: 304 while nothing at the
    phone's tables changed, the page again after a hand is saved, per view, period and
    language; "tonight" (a window that moves with the clock) is never answered 304."""
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], a=40))
    shown = client.get("/stats")  # shows the one-time "Hand 1 saved.": no validator then
    assert shown.status_code == 200 and "ETag" not in shown.headers
    first = client.get("/stats")
    tag = first.headers["ETag"].strip('"')
    assert first.status_code == 200 and "Ann" in first.get_data(as_text=True)
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get("/stats", headers={"If-None-Match": f'"{tag}"'})
    assert again.status_code == 304 and again.get_data() == b""
    cards = client.get("/stats?view=cards", headers={"If-None-Match": f'"{tag}"'})
    assert cards.status_code == 200  # another view is another page
    german = client.get("/stats", headers={"If-None-Match": f'"{tag}"',
                                           "Accept-Language": "de"})
    assert german.status_code == 200 and german.headers["ETag"].strip('"') != tag
    post_hand(client, url, hand_form([1, 3], a=70))
    client.get(url)  # the one-time message shown
    after = client.get("/stats", headers={"If-None-Match": f'"{tag}"'})
    assert after.status_code == 200 and after.headers["ETag"].strip('"') != tag
    tonight = client.get("/stats?period=tonight")
    assert tonight.status_code == 200 and "ETag" not in tonight.headers


def test_a_change_made_elsewhere_is_seen_on_revalidation(client, app):
    """A change made through another process (here: a write straight to the database, as
    another server's would be) changes the validator: the version is read from the tables'
    matches in the database on every request, nothing is kept by this process."""
    from sqlalchemy import text

    from tichu_scorer.extensions import db

    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], a=40))
    client.get(url)  # the one-time message shown
    tag = client.get("/stats").headers["ETag"]
    assert client.get("/stats", headers={"If-None-Match": tag}).status_code == 304
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(text("UPDATE match SET revision = revision + 1"))
    assert client.get("/stats", headers={"If-None-Match": tag}).status_code == 200
