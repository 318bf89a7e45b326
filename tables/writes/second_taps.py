"""Second taps that may not be a new game, read under the event's lock by
tables.writes.reporting before a report is stored.

Terms:
    quick retap  a phone that reported game k, then reports the same winner for game k+1
                 within RETAP_WINDOW of it: maybe a real game, maybe a second tap on a name
                 that the next game's form put under the finger, or a retap after an
                 answer that never came back. It is asked about before it counts ("Another
                 game for Ivo?"), never silently refused or counted. A phone's script
                 (static/js/phone.js) asks itself, at the tap, on what its screen showed
                 and when it saw its last report answered, and then sends the report with
                 ``retap_checked``; only a report without it (a page without JavaScript)
                 is asked about here (RetapQuestion). "This phone" is the phone id (or,
                 without it, the key of its last report, ``previous_key``).
    phantom game a one-tap report from another phone that names the winner of the latest
                 game, still unconfirmed, as the game after it, within CONFIRMATION_WINDOW
                 of that game's first report: the player meant "Yes, confirm game k" and
                 tapped the name in the big list below it. It confirms game k instead;
                 game k+1, which nobody played, is never created.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from tables.models import Game, GameReport, GameStatus, ReportState, Table
from tournament.common.errors import Refused
from tournament.models import Player, Round

# As long as the phantom game's window below: no real game follows another that fast.
RETAP_WINDOW = timedelta(seconds=30)
# Long enough for the other phones to poll (twice a second), show "Another phone says..." and
# for a player to read it and tap; far too short for a real game to follow: shuffling,
# dealing and playing up to seven tricks in silence takes minutes, not 30 seconds.
CONFIRMATION_WINDOW = timedelta(seconds=30)


class RetapQuestion(Refused):
    """A quick retap (see Terms) from a page without JavaScript: the page asks whether
    another game was really played, and a "yes" sends the same report with
    ``retap_checked``. Nothing was stored."""

    def __init__(self, *, winner: Player, number: int) -> None:
        super().__init__(
            _("Another game for %(name)s? This phone reported game %(earlier)s a moment ago.")
            % {"name": winner.name, "earlier": number - 1}
        )
        self.winner = winner
        self.number = number


def just_reported_elsewhere(
    latest: Game | None,
    *,
    winner: Player,
    previous_key: str | None,
    mine: list[GameReport],
    now: datetime,
) -> bool:
    """Whether a report of ``winner`` for the game after ``latest`` is a phantom game."""
    if (
        latest is None
        or latest.status != GameStatus.UNCONFIRMED
        or latest.winner_id != winner.pk
        or now - latest.reported_at >= CONFIRMATION_WINDOW
    ):
        return False
    # This phone's own report: a phone never confirms itself.
    if any(earlier.game_id == latest.pk for earlier in mine):
        return False
    return not (previous_key and latest.reports.filter(client_key=previous_key).exists())


def previous_report(
    mine: list[GameReport], previous_key: str | None, *, round_: Round, table: Table
) -> GameReport | None:
    """This phone's latest counted report at this table in the round: by its phone id,
    else by the key of its last report (a phone without the id's cookie)."""
    here = [r for r in mine if r.table_id == table.pk and r.state == ReportState.COUNTED]
    if here:
        return here[-1]
    if not previous_key:
        return None
    return (
        GameReport.objects.filter(client_key=previous_key, round=round_, table=table)
        .only("game_number", "winner_id", "received_at")
        .first()
    )


def is_quick_retap(
    previous: GameReport | None, *, number: int, winner: Player, now: datetime
) -> bool:
    return (
        previous is not None
        and number == previous.game_number + 1
        and winner.pk == previous.winner_id
        and now - previous.received_at < RETAP_WINDOW
    )
