"""The screen tables' part of an imported record: each deal checked against its own hands
(tournament.reads.record_screens describes it), then written with its plays, pointing and
taken tricks; each round's strokes and gestures, their points checked as a screen's are,
and the video links as the organizer's form checks them.

Terms:
    deal, parts   see tournament.reads.record_screens.
    follows       a deal's plays and taken tricks replay as a game (tables.rules.
                  screen_play.replay): every card played was in its player's hand, in
                  turn, and the tricks were taken in order by players of the deal. A record
                  whose deal does not follow is refused, naming the deal, as any other
                  problem of the file.
    key           every play and pointing gets a new client key, as reports do
                  (tournament.writes.record_import): a key from another server means
                  nothing here.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from tables.models import Deal, Gesture, Play, Pointing, Stroke, TakenTrick
from tables.rules import screen_play as rules
from tables.rules import silent_channel
from tournament.models import Player, Round
from tournament.reads.record_screens import (
    DEAL_PARTS,
    DEALS,
    GESTURES,
    PLAYS,
    POINTING,
    SILENT_CHANNEL,
    STROKES,
    TRICKS,
)
from tournament.writes.record_fields import RecordObject, problem

Row = dict[str, Any]


def check_deals(reader: Any, item: RecordObject) -> list[Row]:
    """A round's deals, each with its parts, read by ``reader`` (the record check's) and
    checked to follow (see Terms)."""
    if DEALS.key not in item.data:
        return DEALS.default()
    rows = []
    for each in item.objects(DEALS.key):
        row = reader.read(DEALS, each)
        for part in DEAL_PARTS:
            row[part.key] = (
                [reader.read(part, one) for one in each.objects(part.key)]
                if part.key in each.data
                else part.default()
            )
        _check_follows(row, each)
        rows.append(row)
    return rows


def _check_follows(row: Row, item: RecordObject) -> None:
    seats, hands = row["seats"], row["hands"]
    if set(seats) != set(hands) or row["dealer"] not in seats or row["leader"] not in seats:
        raise problem(item.at("seats"), _("the seats, the hands and the dealer do not match."))
    try:
        rules.replay(
            seats,
            hands=hands,
            leader=row["leader"],
            plays=[(p["trick"], p["player"], p["card"]) for p in row[PLAYS.key]],
            taken={t["number"]: t["taker"] for t in row[TRICKS.key]},
        )
    except (ValueError, KeyError) as wrong:
        raise problem(item.at(PLAYS.key), _("the plays do not follow the deal's hands.")) from wrong


def write_deals(build: Any, in_rounds: list[tuple[Round, Row]]) -> None:
    """The checked deals of every round, and their parts, in the new event."""
    made: list[tuple[Deal, Row]] = []
    for round_, row in in_rounds:
        for deal_row in row.get(DEALS.key, []):
            deal = build.row(DEALS, deal_row, round=round_)
            made.append((deal, deal_row))
    Deal.objects.bulk_create([deal for deal, _row in made])
    plays: list[Play] = []
    pointings: list[Pointing] = []
    taken: list[TakenTrick] = []
    for deal, row in made:
        for one in row[PLAYS.key]:
            plays.append(build.row(PLAYS, one, deal=deal, client_key=_key()))
        for one in row[POINTING.key]:
            pointings.append(build.row(POINTING, one, deal=deal, client_key=_key()))
        taken.extend(build.row(TRICKS, one, deal=deal) for one in row[TRICKS.key])
    Play.objects.bulk_create(plays)
    Pointing.objects.bulk_create(pointings)
    TakenTrick.objects.bulk_create(taken)


def check_silent_channel(reader: Any, item: RecordObject) -> dict[str, list[Row]]:
    """A round's strokes and gestures, read by ``reader`` (the record check's): a clear
    has no points, a line has some."""
    rows: dict[str, list[Row]] = {}
    for section in SILENT_CHANNEL:
        if section.key not in item.data:
            rows[section.key] = section.default()
            continue
        rows[section.key] = []
        for each in item.objects(section.key):
            row = reader.read(section, each)
            if section is STROKES and (row["kind"] == silent_channel.CLEAR) == bool(row["points"]):
                raise problem(each.at("points"), _("expected the points of a line inside the pad."))
            rows[section.key].append(row)
    return rows


def read_points(value: Any, where: str) -> list[list[int]]:
    """A stroke's points as the record holds them, checked as the pad checks a screen's."""
    text = ""
    if isinstance(value, list) and all(
        isinstance(point, list)
        and len(point) == 2
        and all(type(n) is int and n >= 0 for n in point)
        for point in value
    ):
        text = " ".join(f"{x},{y}" for x, y in value)
    if value == []:
        return []
    try:
        stroke = silent_channel.read_stroke("black", text)
    except silent_channel.StrokeProblem:
        raise problem(where, _("expected the points of a line inside the pad.")) from None
    return [list(point) for point in stroke.points]


def read_video_link(link: str | None, where: str, *, pattern: bool) -> str:
    """The link as the organizer's form would take it, or the file's refusal: a link
    that would show one host and lead to another is refused here too."""
    try:
        return silent_channel.check_video_link(link or "", pattern=pattern)
    except silent_channel.VideoProblem as refused:
        why = {
            silent_channel.USER_INFO: _("expected an https address without a name before an @."),
            silent_channel.HIDDEN: _("expected an https address without hidden characters."),
        }.get(refused.reason, _("expected an https address, or nothing."))
        raise problem(where, why) from None


def write_silent_channel(build: Any, in_rounds: list[tuple[Round, Row]]) -> None:
    """The checked strokes and gestures of every round, in the new event."""
    strokes: list[Stroke] = []
    gestures: list[Gesture] = []
    for round_, row in in_rounds:
        for one in row.get(STROKES.key, []):
            strokes.append(
                build.row(
                    STROKES, one, round=round_, point_count=len(one["points"]), client_key=_key()
                )
            )
        for one in row.get(GESTURES.key, []):
            gestures.append(build.row(GESTURES, one, round=round_, client_key=_key()))
    Stroke.objects.bulk_create(strokes)
    Gesture.objects.bulk_create(gestures)


def names_to_ids(names: list[str], players: dict[str, Player]) -> list[int]:
    return [players[name].pk for name in names]


def hands_to_ids(hands: dict[str, list[str]], players: dict[str, Player]) -> dict[str, list]:
    return {str(players[name].pk): list(cards) for name, cards in hands.items()}


def _key() -> str:
    return f"import-{secrets.token_hex(16)}"
