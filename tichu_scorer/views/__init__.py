"""Blueprints by noun."""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    from . import (
        api,
        api_players,  # noqa: F401 (its routes are the api blueprint's: imported to add them)
        core,
        errors,
        follow,
        hands,
        health,
        matches,
        pages,
        player_page,
        players,
        ratings,
        referee,
        results,
        season,
        settings,
        sharing,  # noqa: F401 (its routes are the matches blueprint's: imported to add them)
        stats,
        tables,
        tournaments,
        transfer,
        watch,
    )

    app.register_blueprint(matches.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(follow.bp)
    app.register_blueprint(settings.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(season.bp)
    app.register_blueprint(ratings.bp)
    app.register_blueprint(player_page.bp)
    app.register_blueprint(transfer.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(watch.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(core.bp)
    app.register_blueprint(health.bp)
    errors.register(app)
