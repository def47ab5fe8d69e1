"""The JSON import: one match or the whole history, as `json_export` writes it.

An import is checked completely before anything is written, with the checks of the forms
and the API (players, length of the match, every hand through the scoring rules, the log);
no query runs while checking. Then it is written in one short transaction (a handful of
statements, however long the history), so that it never holds up a table that is scoring.
It stores all of it or nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from .. import scoring, statistics
from ..clock import utcnow
from ..extensions import db
from ..follow_rows import FollowEvent
from ..game.i18n import _
from ..game.names import hidden
from ..matches import ending, hand_entry, prebuilt, roster, writes
from ..models import (
    CLIENT_ID,
    MOST_BOMBS,
    NAME_MAX,
    NOTE_MAX,
    Group,
    Hand,
    HandEvent,
    Match,
    MatchSeat,
    Player,
    new_code,
)
from ..players.imports import file_people, player_ids
from . import follow_events
from .checks import (
    MAX_IMPORT_HANDS,
    MAX_IMPORT_MATCHES,
    MAX_IMPORT_TOTAL_EVENTS,
    ImportError_,
    Spot,
    check_log,
    parse_time,
    refuse,
    whole,
)
from .json_export import FORMAT, VERSION, chunks
from .known import Imported, sort_out

# One import is written in one transaction, which holds SQLite's write lock: bounded so that
# it ends well within the busy timeout (5 s) of the saves of other tables (about 1.5 s for
# 9,000 hands measured here); a larger history is imported in parts.
MAX_IMPORT_TOTAL_HANDS = 10_000
MAX_HAND_NUMBER = 100_000
KEY_MAX = Player.__table__.c.name_key.type.length



@dataclass
class _Checked:
    """One match of an import, checked and built in memory; nothing is in the session."""

    match: Match
    events: list[tuple[Hand | None, dict[str, Any]]] = field(default_factory=list)


@dataclass
class _Import:
    """What a whole import needs besides its matches: one player per name key (shared by
    all its matches), and the client ids already used in the file."""

    players: dict[str, Player] = field(default_factory=dict)
    client_ids: set[str] = field(default_factory=set)


def import_json(data: object, group: Group | None = None,
                tables: Sequence[Group] = ()) -> Imported:
    """Store the matches of an export (as new matches) at table `group`, or at a new table
    when None; all or nothing. Checks everything first (ImportError_ naming the match, hand
    and rule), then writes in one transaction. A match already at `group` or one of
    `tables` is skipped (`known`)."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ImportError_(_("This is not a Tichu Scorer export (format)."))
    if data.get("version") != VERSION:
        raise ImportError_(_("Export version {version} is not supported.").format(
            version=repr(data.get("version"))[:10]))
    matches = data.get("matches")
    if not isinstance(matches, list) or len(matches) > MAX_IMPORT_MATCHES:
        raise ImportError_(_("matches must be a list of at most {n} ({given} given).").format(
            n=MAX_IMPORT_MATCHES, given=len(matches) if isinstance(matches, list) else 0))
    total = _count(matches, "hands")
    if total > MAX_IMPORT_TOTAL_HANDS:
        raise ImportError_(_("An import holds at most {n} hands ({given} given): import a long "
                             "history in parts.").format(n=MAX_IMPORT_TOTAL_HANDS, given=total))
    entries = _count(matches, "log")
    if entries > MAX_IMPORT_TOTAL_EVENTS:
        raise ImportError_(_("An import holds at most {n} log entries ({given} given): "
                             "import a long history in parts.").format(
            n=MAX_IMPORT_TOTAL_EVENTS, given=entries))
    state = _Import()
    checked = [_check_match(raw, Spot(index), state)
               for index, raw in enumerate(matches, start=1)]
    return _store(checked, state, group, [t.id for t in tables])


def _count(matches: list[Any], key: str) -> int:
    """The hands (or log entries) of all the matches of a file."""
    return sum(len(m[key]) for m in matches
               if isinstance(m, Mapping) and isinstance(m.get(key), list))


def _check_match(raw: object, where: Spot, state: _Import) -> _Checked:
    if not isinstance(raw, Mapping):
        raise refuse(where, _("a match must be an object."))
    game = scoring.find(raw.get("variant"))
    if game is None:
        raise refuse(where, _("unknown variant {variant}.").format(
            variant=repr(raw.get("variant"))[:20]))
    house = _check_settings(raw, game, where)
    match = Match(variant=game.key, target=raw.get("target"), hand_limit=raw.get("hand_limit"),
                  lead_by=raw.get("lead_by"),
                  house_rules=None if house == scoring.RULE_BOOK else house.as_dict(),
                  started_at=parse_time(raw.get("started_at"), where, "started_at")
                  or utcnow())
    names = _check_players(raw.get("players"), game, where)
    people = file_people(raw, len(names))  # each player's key and guest mark, if given
    match.seats = roster.seat_rows(game, [_player(state, name, *people[seat])
                                          for seat, name in enumerate(names)])
    match.totals = []
    hands = raw.get("hands") or []
    if not isinstance(hands, list) or len(hands) > MAX_IMPORT_HANDS:
        raise refuse(where, _("hands must be a list of at most {n} ({given} given).").format(
            n=MAX_IMPORT_HANDS, given=len(hands) if isinstance(hands, list) else 0))
    by_number: dict[int, Hand] = {}
    for raw_hand in hands:
        hand = _check_hand(match, raw_hand, where, state)
        if hand.number in by_number:
            raise refuse(where, _("hand number {n} appears twice.").format(n=hand.number))
        by_number[hand.number] = hand
    match.all_hands = sorted(by_number.values(), key=lambda h: h.number)
    ending.recompute(match)  # totals, hand count, result: from the hands, never the file
    if (problem := ending.overrun(match)) is not None:  # no hand after the end
        raise refuse(where, f"{problem.message} ({problem.rule})")
    if match.finished:
        match.finished_at = (parse_time(raw.get("finished_at"), where, "finished_at")
                             or match.finished_at)
    return _Checked(match, check_log(raw.get("log"), by_number, where, len(match.seats),
                                     house))


def _check_settings(raw: Mapping[str, Any], game: scoring.Variant, where: Spot
                    ) -> scoring.HouseRules:
    """[R1]: the house rules a match plays by (none in an older export: the rule book), as
    the score API reads them; its length and lead as the new-match form allows them
    (`scoring.settings_problems`; an older export without a target plays to the default,
    as the app reads it). The first problem refuses the match."""
    try:
        house = scoring.read_house_rules(raw.get("house_rules"))
    except scoring.HouseRulesError as exc:
        raise refuse(where, exc.message) from None
    problems = scoring.settings_problems(game, raw.get("target"), raw.get("hand_limit"),
                                         raw.get("lead_by"), house)
    if problems:
        first = problems[0]  # named by the export's own key, as the form names its field
        raise refuse(where, f"{first.field}: {first.message} ({first.rule})")
    return house


def _check_players(players: object, game: scoring.Variant, where: Spot) -> list[str]:
    """The names, as the new-match form takes them: text, spaces tidied, none empty or too
    long, each player in one seat only. Threechu's export names its dummy seat null."""
    fewest, most = game.players
    if not isinstance(players, list):
        players = None
    elif len(players) == game.seat_count(fewest) > fewest and players[-1] is None:
        players = players[:-1]  # the dummy's seat, after the players' ([T3.1])
    if players is None or not fewest <= len(players) <= most:
        need = str(fewest) if fewest == most else f"{fewest}–{most}"
        raise refuse(where, _("players must be a list of {need} names.").format(need=need))
    names = []
    for seat, name in enumerate(players):
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not clean or len(clean) > NAME_MAX:
            raise refuse(where, _("player {seat} must be a name of 1 to {most} "
                                   "characters, not {name}.").format(
                seat=seat + 1, most=NAME_MAX, name=repr(name)[:50]))
        if (unseen := hidden(clean)) is not None:
            raise refuse(where, _("player {seat}: {name} holds a character that cannot be "
                                   "seen ({code}).").format(
                seat=seat + 1, name=repr(name)[:50], code=unseen))
        if len(Player.key_of(clean)) > KEY_MAX:  # 'ß' is 'ss' when case is ignored
            raise refuse(where, _("player {seat}: {name} is too long to store once case "
                                   "is ignored (at most {most} characters).").format(
                seat=seat + 1, most=KEY_MAX, name=repr(name)[:50]))
        names.append(clean)
    keys = [Player.key_of(n) for n in names]
    if len(set(keys)) < len(keys):
        raise refuse(where, _("Each seat needs a different player.") + " (H1)")
    return names


def _player(state: _Import, name: str, key: str | None = None, guest: bool | None = None
            ) -> Player:
    """One player object per name key in the whole import (with the key and guest mark
    the file first gives it); `_store` swaps in the stored player where there is one."""
    name_key = Player.key_of(name)
    if name_key not in state.players:
        state.players[name_key] = Player(name=name, name_key=name_key, key=key, guest=guest)
    return state.players[name_key]


def _check_extras(raw: Mapping[str, Any], seats: int, spot: Spot) -> dict[str, Any]:
    """A hand's bombs (a count of 0–4 per seat) and note (text), both optional."""
    bombs, note = raw.get("bombs"), raw.get("note")
    if bombs is not None and not (isinstance(bombs, list) and len(bombs) <= seats
                                  and all(whole(n, 0, MOST_BOMBS) for n in bombs)):
        raise refuse(spot, _("bombs must be a list of at most {seats} counts from 0 to "
                             "{most}, one per seat. (B1)").format(seats=seats,
                                                                  most=MOST_BOMBS))
    if note is not None and not (isinstance(note, str) and len(note) <= NOTE_MAX):
        raise refuse(spot, _("note must be text of at most {n} characters.").format(
            n=NOTE_MAX))
    return {"bombs": bombs, "note": note}


def _check_hand(match: Match, raw: object, where: Spot, state: _Import) -> Hand:
    # a hand number far beyond any match would leave no room for the next hand's number
    if not isinstance(raw, Mapping) or not whole(raw.get("number"), high=MAX_HAND_NUMBER):
        raise refuse(where, _("every hand needs its number (a whole number from 1)."))
    spot = Spot(where.match, hand=raw["number"])
    shuffler = raw.get("shuffler")
    records_shuffler = match.game.records_shuffler
    if records_shuffler and not whole(shuffler, 0, match.game.variant.fewest - 1):
        raise refuse(spot, _("a Threechu hand names its shuffler (0–2). (T3.1)"))
    if not records_shuffler and shuffler is not None:
        raise refuse(spot, _("only a Threechu hand has a shuffler. (T3.1)"))
    data = {"out_order": raw.get("out_order"), "calls": raw.get("calls") or {},
            "card_points": raw.get("card_points") or [None, None],
            "wish_penalty": None if raw.get("wish_offender") is None
            else {"offender": raw.get("wish_offender")}}
    hand = Hand(number=raw["number"], shuffler=shuffler,
                **hand_entry.extras_of(_check_extras(raw, len(match.seats), spot)))
    # scored on its own: the match's hands are attached only after all of them are read
    _preview, problems, row = hand_entry.score(match, data, editing=hand)
    if problems:
        first = problems[0]
        raise refuse(spot, f"{first.message} ({first.rule})")
    client_id = raw.get("client_id")
    if client_id is not None and not (isinstance(client_id, str)
                                      and CLIENT_ID.fullmatch(client_id)):
        raise refuse(spot, _("client_id must be 1–64 letters, digits, - or _."))
    if client_id in state.client_ids:
        client_id = None  # the same hand twice in one file: keep the hand, not the id
    elif client_id is not None:
        state.client_ids.add(client_id)
    version = raw.get("version", 1)
    if not whole(version):
        raise refuse(spot, _("version must be a whole number from 1."))
    for name, value in row.items():
        setattr(hand, name, value)
    hand.version, hand.client_id = version, client_id
    hand.created_at = parse_time(raw.get("created_at"), spot, "created_at") or utcnow()
    hand.deleted_at = parse_time(raw.get("deleted_at"), spot, "deleted_at")
    hand.follow = follow_events.checked(raw.get("follow"), len(match.seats), spot)  # [L6]
    return hand


def _rows(objects: Iterable[Any], columns: Sequence[str], **extra: Any) -> list[dict[str, Any]]:
    return [{c: getattr(o, c) for c in columns} | extra for o in objects]


MATCH_COLUMNS = ("variant", "target", "hand_limit", "house_rules", "lead_by", "victory",
                 "started_at", "finished_at", "winner_team", "totals", "hand_count",
                 "revision")
HAND_COLUMNS = ("number", "version", "deleted_at", "client_id", "out_order", "calls",
                "card_points_entered", "wish_offender", "shuffler", "card_points",
                "team_scores", "player_scores", "sweep", "created_at", "bombs", "note")


def _store(checked: list[_Checked], state: _Import, group: Group | None,
           tables: list[int]) -> Imported:
    """Write the checked matches in one transaction of a few statements per table (many
    rows each, whatever the size of the history): players, matches, seats, hands, log.
    The ids the database gives are read back by keys the import chose (a match's join code,
    a hand's match and number), so no insert waits for its own result."""
    table_id = group.id if group is not None else None  # (kept before the write begins)
    try:
        writes.begin_write()
        if table_id is not None:  # the table first, as every write of a whole table
            writes.lock_table(table_id)
        keep, already, copies = sort_out(
            [item.match for item in checked], sorted({*tables, *([group.id] if group else [])}))
        checked = [checked[i] for i in keep]
        matches = [item.match for item in checked]
        if not matches:
            db.session.rollback()
            return Imported([], already, copies)
        named = {s.player.name_key for m in matches for s in m.seats if s.player}
        state.players = {k: p for k, p in state.players.items() if k in named}
        if group is None:
            group = Group(name=_("Imported matches"))
            db.session.add(group)
            db.session.flush()
        players, matched = player_ids(state.players, group.id)
        taken = _stored(Hand.client_id, sorted(state.client_ids))
        codes = _new_codes(len(matches))
        if matches:
            _insert(Match, [row | {"code": code, "group_id": group.id} for row, code in zip(
                _rows(matches, MATCH_COLUMNS), codes, strict=True)])
        ids = dict(_select(Match.code, Match.id, codes))
        seats, hands = [], []
        for match, code in zip(matches, codes, strict=True):
            match.id = ids[code]  # for the caller; the object itself is never stored
            match.group_id = group.id
            seats += [{"match_id": match.id, "seat": s.seat, "team": s.team,
                       "player_id": players[s.player.name_key] if s.player else None}
                      for s in match.seats]
            hands += _rows(match.all_hands, HAND_COLUMNS, match_id=match.id)
        for row in hands:
            if row["client_id"] in taken:
                row["client_id"] = None  # already here (an export imported twice)
        _insert(MatchSeat, seats)
        _insert(Hand, hands)
        hand_ids = {(m, n): i for m, n, i in _select_rows(
            (Hand.match_id, Hand.number, Hand.id), Hand.match_id, list(ids.values()))}
        events = [{"match_id": item.match.id, "hand_id": hand_ids[item.match.id, hand.number]
                   if hand is not None else None, **fields}
                  for item in checked for hand, fields in item.events]
        _insert(HandEvent, events)
        _insert(FollowEvent, follow_events.rows(matches))
        statistics.record_imported(matches)
        _stamp(group.id, list(ids.values()))
        db.session.commit()
    except IntegrityError:  # a player, client id or code stored by another request meanwhile
        db.session.rollback()
        raise ImportError_(_("Another phone saved at the same moment; nothing was "
                             "imported. Import the file again.")) from None
    except Exception:
        db.session.rollback()
        raise
    return Imported(matches, already, copies, matched)


def _stamp(group_id: int, match_ids: list[int]) -> None:
    """Give the imported matches the table's next stamp, last thing before the commit (the
    nearer the commit, the fewer changes of other writers can take the same one)."""
    if not match_ids:
        return
    stamp = db.session.execute(db.select(prebuilt.next_stamp(group_id))).scalar_one()
    for chunk in chunks(match_ids):
        db.session.execute(Match.__table__.update()
                           .where(Match.__table__.c.id.in_(chunk)).values(stamp=stamp))


def _insert(model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert many rows with one executemany (pipelined by psycopg, a loop in C for
    SQLite); measured faster than RETURNING's batched VALUES on both."""
    if rows:
        db.session.execute(insert(model.__table__), rows)


def _select_rows(columns: Sequence[Any], key: Any, values: Sequence[Any]) -> list[Any]:
    """`columns` of the rows whose `key` is one of `values`, a chunk at a time."""
    found: list[Any] = []
    for chunk in chunks(values):
        found += db.session.execute(db.select(*columns).where(key.in_(chunk))).all()
    return found


def _select(key: Any, value: Any, keys: Sequence[Any]) -> list[tuple[Any, Any]]:
    return [(k, v) for k, v in _select_rows((key, value), key, keys)]


def _stored(column: Any, values: Sequence[str]) -> set[str]:
    return {v for v, _same in _select(column, column, values)}


def _new_codes(count: int) -> list[str]:
    """Join codes for the imported matches, unused so far (they also tell the matches
    apart when their ids are read back)."""
    codes: list[str] = []
    while len(codes) < count:
        wanted = {new_code(8) for _ in range(count - len(codes))} - set(codes)
        codes += sorted(wanted - _stored(Match.code, sorted(wanted)))
    return codes
