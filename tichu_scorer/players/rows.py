"""The row of a player, beside `models.py` (which holds the other rows and is at its length)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..clock import utcnow
from ..extensions import db
from ..game import names

NAME_MAX = 40
KEY_LENGTH = 16  # characters of `Player.key` (96 random bits, URL-safe)


def new_player_key() -> str:
    """An unguessable public id for a player's page."""
    return secrets.token_urlsafe(12)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person at one table, reused across its matches by name (matched without regard to
    case). Each table has its own players: a name at one table tells nothing about another.
    `key` names the player in URLs; `guest` marks someone who played once or twice and is
    kept apart from the table's regulars in its lists."""

    __table_args__ = (UniqueConstraint("group_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("tichu_group.id", ondelete="CASCADE"),
                                          index=True)
    key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True, default=new_player_key)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    # casefold() may triple a character ("ß" → "ss", some ligatures more)
    name_key: Mapped[str] = mapped_column(String(3 * NAME_MAX))
    guest: Mapped[bool] = mapped_column(default=False, server_default="0")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @staticmethod
    def key_of(name: str) -> str:
        """What makes two names one player (`game.names.key`)."""
        return names.key(name)


class PlayerMerge(db.Model):  # type: ignore[name-defined,misc]
    """One merge of a player into another of the same table (`players.identity.merge`),
    kept with what it moved so that an undo puts it back exactly: the player merged away as
    it was (`source`: its id, key, name, guest mark and creation), the seats it held
    (`seats`: their ids), and the tournament entries and rounds that named it
    (`tournament`: their values before). `undone_at`: when it was undone (None: in force).
    The table's list of merges is its log of them."""

    __tablename__ = "player_merge"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True, default=new_player_key)
    group_id: Mapped[int] = mapped_column(ForeignKey("tichu_group.id", ondelete="CASCADE"),
                                          index=True)
    target_key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    source_name: Mapped[str] = mapped_column(String(NAME_MAX))
    target_name: Mapped[str] = mapped_column(String(NAME_MAX))
    source: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[int]] = mapped_column(JSON, default=list)
    tournament: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    phone: Mapped[str | None] = mapped_column(String(24), default=None)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)
