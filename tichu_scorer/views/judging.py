"""The referee as the web layer runs it: every question within its CPU budget."""

from __future__ import annotations

from flask import current_app

from .. import engine


def judge(body: object) -> engine.Verdict:
    """The verdict on a question's body (docs/API.md): QuestionError for a question that
    cannot be judged, OutOfTime past REFEREE_CPU_BUDGET seconds of CPU (`errors`: 503)."""
    budget = engine.Budget(float(current_app.config["REFEREE_CPU_BUDGET"]))
    return engine.judge(engine.parse_question(body), budget)
