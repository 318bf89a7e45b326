"""What a table's phone is answered when it reports a game (a one-tap winner,
tables.views.phone, or the tricks of a game the clock cut off, tables.views.tricks).

Answers say plainly what became of a report, so a phone's outbox (static/js/phone.js and
static/js/outbox.js) can tell them from anything else that may come back (a proxy's error
page, a captive portal's sign-in page, a 500).

Terms:
    stored       the report is stored, or was already (same client key): the answer
                 carries ``STORED_HEADER`` (X-Report-Stored) with the client key it was
                 sent with, and the page as it is now (htmx) or a redirect to it with the
                 outcome's words (a plain form). The phone forgets the report.
    refused      the report cannot be taken, for a reason the answer shows (round not
                 started, a player of another table, tricks that do not fit, a rotated
                 link, a quick retap to confirm): a 4xx (``REFUSED_STATUS``, or 400 for a
                 form to correct) with ``REFUSED_HEADER`` (X-Report-Refused). The phone
                 shows the reason and does not send that report again.
    fault        anything else (``answer_fault`` is the test-only fault switch's, a 500):
                 the phone keeps the report and sends it again with the same key.
    outcome      what became of a stored report, in the phone's words (``outcome_notice``):
                 recorded, confirmed, disputed, held, late, set aside, a second report of
                 one phone.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect, HttpResponseServerError
from django.urls import reverse
from django.utils.translation import gettext as _

from tables.models import GameStatus, ReportState, Table
from tables.reads.screens import RoundRead
from tables.views.phone_page import LIVE_PARTIAL, remember_my_game, render_table_screen
from tables.writes.reporting import Outcome, ReportResult
from tournament.common.phone_ids import keep_phone_id
from tournament.common.requests import HtmxRequest

STORED_HEADER = "X-Report-Stored"
REFUSED_HEADER = "X-Report-Refused"
REFUSED_STATUS = 409  # Conflict: the state of the round or table does not allow it


def outcome_notice(result: ReportResult) -> tuple[str, str]:
    """(kind, message) telling the phone what became of its report (see Terms: outcome)."""
    report = result.report
    values = {"number": report.game_number, "name": report.winner.name}
    if report.state == ReportState.DROPPED:
        return "warn", _("The organizer set this report aside.")
    if result.outcome == Outcome.LATE or report.state == ReportState.LATE:
        return "warn", _("This round is closed. Your report was kept for the organizer.")
    if result.outcome == Outcome.HELD or report.state == ReportState.HELD:
        return "warn", _(
            "Game %(number)s: this phone already reported at table %(table)s in this round, "
            "so the organizer will check this report before it counts."
        ) % {**values, "table": report.other_table_number}
    game = result.game
    if result.outcome == Outcome.DUPLICATE and not (
        game and game.status in (GameStatus.DISPUTED, GameStatus.SETTLED)
    ):
        return "warn", _(
            "This phone already reported game %(number)s. A second report from the same "
            "phone does not confirm it: another phone at this table can."
        ) % values
    if result.outcome == Outcome.DISPUTED or (game and game.status == GameStatus.DISPUTED):
        return "warn", _(
            "Game %(number)s: another phone named someone else — the organizer will settle it."
        ) % values
    if result.read_as_confirmation:
        return "good", _(
            "Game %(number)s confirmed: %(name)s won (another phone reported it a moment ago)."
        ) % values
    if result.outcome == Outcome.CONFIRMED or (game and game.status == GameStatus.CONFIRMED):
        return "good", _("Game %(number)s confirmed: %(name)s won.") % values
    return "good", _("Game %(number)s recorded: %(name)s won.") % values


def answer_stored(
    request: HtmxRequest, table: Table, result: ReportResult, phone: str, client_key: str
) -> HttpResponse:
    """The answer to a stored report (see Terms: stored), which gives the phone its id."""
    kind, message = outcome_notice(result)
    if request.htmx:
        # The report changed the table's version (maybe the phase too since the page was
        # loaded): show it as it is now, with the ETag the next poll should send. A stored
        # report brings the table as its write read it, under the event's lock.
        known = None
        if (state := result.state) is not None:
            table.event, table.version = state.event, state.table_version
            known = RoundRead(state.round_, state.players, state.games)
        else:
            table.refresh_from_db(fields=["version"])
            table.event.refresh_from_db()
        response = render_table_screen(
            request,
            table,
            LIVE_PARTIAL,
            notice=(kind, message),
            just_reported=result.report.game_number,
            known=known,
            reported=True,  # phone.js keeps the next game's buttons locked a moment
        )
    else:
        (messages.success if kind == "good" else messages.warning)(request, message)
        response = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    remember_my_game(response, request, table, result)
    keep_phone_id(response, request, phone)
    response[STORED_HEADER] = client_key
    return response


def answer_refused(request: HtmxRequest, table: Table, message: str) -> HttpResponse:
    """The page with the reason a report cannot be taken (see Terms: refused)."""
    if request.htmx:
        table.refresh_from_db(fields=["version"])
        table.event.refresh_from_db()
        response = render_table_screen(request, table, LIVE_PARTIAL, notice=("error", message))
        response.status_code = REFUSED_STATUS
    else:
        messages.error(request, message)
        response = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    response[REFUSED_HEADER] = "1"
    return response


def answer_fault() -> HttpResponse:
    """What the test-only fault switch answers instead of taking a report (see Terms: fault)."""
    return HttpResponseServerError("<h1>Server Error (500)</h1>")
