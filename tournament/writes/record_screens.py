"""The screen tables' part of an imported record: each deal checked against its own hands
(tournament.reads.record_screens describes it), then written with its plays, pointing and
taken tricks.

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

from tables.models import Deal, Play, Pointing, TakenTrick
from tables.rules import screen_play as rules
from tournament.models import Player, Round
from tournament.reads.record_screens import DEAL_PARTS, DEALS, PLAYS, POINTING, TRICKS
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


def names_to_ids(names: list[str], players: dict[str, Player]) -> list[int]:
    return [players[name].pk for name in names]


def hands_to_ids(hands: dict[str, list[str]], players: dict[str, Player]) -> dict[str, list]:
    return {str(players[name].pk): list(cards) for name, cards in hands.items()}


def _key() -> str:
    return f"import-{secrets.token_hex(16)}"
