"""The rows of a followed hand (RULES.md §11): each tap of a table that follows a hand as
it is played, beside `models.py` (which holds every other row and is at its length)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, SmallInteger, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .clock import utcnow
from .extensions import db


class FollowEvent(db.Model):  # type: ignore[name-defined,misc]
    """One event of a followed hand (`core.follow`), never changed afterwards (an undo is an
    event too). `hand` is the entry number the hand gets when it is saved (`Hand.number`),
    `seq` the event's place in that hand: unique, so that a second phone's event never
    takes the same place. `client_id` counts a phone's tap once (as a hand's); `phone` is
    the phone's name, `device` its random id, `at` the server's time."""

    __tablename__ = "follow_event"
    __table_args__ = (UniqueConstraint("match_id", "hand", "seq"),
                      Index("ix_follow_event_hand", "match_id", "hand"))

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    hand: Mapped[int]
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    rank: Mapped[str | None] = mapped_column(String(2), default=None)
    client_id: Mapped[str | None] = mapped_column(String(64), default=None, unique=True)
    phone: Mapped[str | None] = mapped_column(String(24), default=None)
    device: Mapped[str | None] = mapped_column(String(24), default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
