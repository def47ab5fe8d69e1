"""The reads of a player's page (`players.page`): the choice of best and worst partner,
rival and nemesis, the periods' starts, and the figures read from the database."""

from datetime import datetime, timezone

from tests.conftest import hand_form, match_id, new_match, post_hand
from tichu_scorer.extensions import db
from tichu_scorer.models import Match, Player
from tichu_scorer.players.page import Companion, PlayerFigures, figures, tally_who
from tichu_scorer.views.player_page import since


def met(name, matches, won, their_won=0, hands=0, points=0):
    return Companion(name.lower(), name, matches, won, their_won, hands, points)


def test_best_and_worst_partner_by_wins_and_by_points_per_hand():
    found = PlayerFigures(partners=[
        met("Ann", 4, 3, hands=40, points=400), met("Bob", 2, 2, hands=10, points=50),
        met("Cy", 5, 1, hands=50, points=1500), met("Dee", 5, 1, hands=0)])
    assert found.best_partner().name == "Bob"  # 100 %
    assert found.worst_partner().name == "Cy"  # 20 %, as Dee: Cy first by name
    assert found.best_partner_points().name == "Cy"  # 30 a hand
    assert found.worst_partner_points().name == "Bob"  # 5 a hand; Dee played no hand
    alone = PlayerFigures(partners=[met("Ann", 1, 1, hands=4, points=100)])
    assert alone.best_partner().name == "Ann" and alone.worst_partner() is None
    assert alone.worst_partner_points() is None
    assert PlayerFigures().best_partner() is None and PlayerFigures().rival() is None
    unwon = PlayerFigures(partners=[met("Carla", 1, 0, hands=4, points=-20),
                                    met("Dan", 2, 0, hands=8, points=-100)])
    assert unwon.best_partner() is None  # not "Carla, 0 of 1 won"
    assert unwon.worst_partner() is None  # nor the same as the worst
    once = PlayerFigures(partners=[met("Carla", 1, 0), met("Dan", 2, 1)])
    assert once.best_partner().name == "Dan" and once.worst_partner().name == "Carla"
    level = PlayerFigures(partners=[met("Ann", 2, 2, hands=8, points=800),
                                    met("Bob", 1, 1, hands=4, points=400)])
    assert level.best_partner().name == "Ann" and level.worst_partner() is None
    assert level.worst_partner_points() is None  # both 100 a hand


def test_the_rival_is_met_most_the_nemesis_wins_most_against_the_player():
    found = PlayerFigures(opponents=[
        met("Ann", 9, 6, 3), met("Bob", 9, 4, 5), met("Cy", 3, 0, 3), met("Dee", 2, 2, 0)])
    assert found.rival().name == "Bob"  # 9 matches each: Bob the closer (−1 against +3)
    assert found.nemesis().name == "Cy"  # −3
    assert PlayerFigures(opponents=[met("Dee", 2, 2, 0)]).nemesis() is None
    assert met("Ann", 9, 5, 4).balance == 1 and met("Ann", 0, 0).win_percent is None


def test_the_periods_start_tonight_this_month_and_this_year(time_machine):
    time_machine.move_to(datetime(2027, 3, 4, 5, 6, tzinfo=timezone.utc))
    assert since("tonight") == datetime(2027, 3, 3, 17, 6)
    assert since("month") == datetime(2027, 3, 1)
    assert since("year") == datetime(2027, 1, 1)
    assert since("all") is None


def test_the_figures_of_a_player_from_the_stored_sums(app, client):
    url = new_match(client)
    post_hand(client, url, hand_form([0, 2], {"0": "tichu"}))
    post_hand(client, url, hand_form([1, 0], {"2": "grand"}, a=40, wish=2))
    with app.test_request_context():
        cy = db.session.execute(db.select(Player).filter_by(name="Cy")).scalar_one()
        assert tally_who(cy) == "Cy"
        team_a = db.session.get(Match, match_id(url)).totals[0]
        for begin in (None, datetime(2000, 1, 1)):  # the table's sums, and a period's rows
            found = figures(cy, begin)
            assert (found.matches, found.hands, found.tally.won) == (1, 2, 0)
            assert (found.tally.grand_called, found.tally.grand_made) == (1, 0)
            assert found.missed_wishes == 1 and found.tally.double_victories == 1
            assert found.tally.points == team_a  # the side's points in every hand
            assert [(c.name, c.matches, c.won) for c in found.partners] == [("Ann", 1, 0)]
            assert [c.name for c in found.opponents] == ["Bob", "Dee"]
        assert figures(cy, datetime(2100, 1, 1)) == PlayerFigures()


def test_the_rating_line_keeps_at_most_a_point_per_two_units_of_width():
    from tichu_scorer.views.player_page import LINE_W, line
    assert line([0.0, 1.0], 0.0, 1.0) == "M4 92l312-88"  # from the bottom left to the top right
    long = line([float(n) for n in range(5000)], 0.0, 4999.0)
    assert long.startswith("M4 92") and long.count("l") == LINE_W // 2 - 1
