"""The organizer's corrections to games: add a game, settle a disputed one, delete one;
accept or drop a late (or held) report; and the corrections log that lists them all.

Terms:
    late report   a report that reached a closed round; a held report, from a phone that
                  already reported at another table this round. Both wait for the
                  organizer to accept or drop them.
    correction    an organizer's change to a game, kept in the corrections log with who
                  made it (tables.writes.corrections).

Co-facilitators who assist may add games and settle disputes (may="assist").
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.models import Game, GameCorrection, GameReport, Table
from tables.writes.corrections import (
    accept_late_report,
    add_game,
    delete_game,
    drop_late_report,
    settle_game,
)
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.models import Event, Player, Round
from tournament.views.access import EventRequest, event_view
from tournament.views.organizer.answers import console_url, run_action
from tournament.views.organizer.tables import table_url


def _posted_player(request: EventRequest, event: Event) -> Player | None:
    """The player the form names as a game's winner, or None if it names nobody here."""
    player_id = positive_int(request.POST.get("winner"))
    return Player.objects.filter(event=event, pk=player_id).first() if player_id else None


@require_POST
@event_view(may="assist")
def game_add(request: EventRequest, event: Event, number: int) -> HttpResponse:
    table = get_object_or_404(Table, event=event, number=number)
    round_number = positive_int(request.POST.get("round"))
    round_ = (
        Round.objects.filter(event=event, number=round_number).first() if round_number else None
    )
    winner = _posted_player(request, event)

    def add() -> str:
        if round_ is None:
            raise Refused(_("Games can be added only while their round is open."))
        if winner is None:
            raise Refused(_("Choose who won the game."))
        game = add_game(round_=round_, table=table, winner=winner, by=request.user)
        return _("Game %(game)s at table %(table)s: %(name)s won.") % {
            "game": game.number,
            "table": table.number,
            "name": winner.name,
        }

    return run_action(request, add, default=table_url(event, number))


def _game(event: Event, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("round", "table", "winner"), table__event=event, pk=game_id
    )


@require_POST
@event_view(may="assist")
def game_settle(request: EventRequest, event: Event, game_id: int) -> HttpResponse:
    game = _game(event, game_id)
    winner = _posted_player(request, event)

    def settle() -> str:
        if winner is None:
            raise Refused(_("Choose who won the game."))
        settle_game(game=game, winner=winner, by=request.user)
        return _("Game %(game)s at table %(table)s: %(name)s won (decided by you).") % {
            "game": game.number,
            "table": game.table.number,
            "name": winner.name,
        }

    return run_action(request, settle, default=table_url(event, game.table.number))


@require_POST
@event_view()
def game_delete(request: EventRequest, event: Event, game_id: int) -> HttpResponse:
    game = _game(event, game_id)
    values = {"game": game.number, "table": game.table.number}

    def delete() -> str:
        delete_game(game=game, by=request.user)
        return _("Game %(game)s at table %(table)s was deleted.") % values

    return run_action(request, delete, default=table_url(event, game.table.number))


def _late_report(event: Event, report_id: int) -> GameReport:
    return get_object_or_404(
        GameReport.objects.select_related("round", "table", "winner"),
        table__event=event,
        pk=report_id,
    )


@require_POST
@event_view()
def report_accept(request: EventRequest, event: Event, report_id: int) -> HttpResponse:
    report = _late_report(event, report_id)

    def accept() -> str:
        game = accept_late_report(report=report, by=request.user)
        return _(
            "Accepted: game %(game)s of round %(round)s at table %(table)s, won by %(name)s. "
            "Moves already made do not change."
        ) % {
            "game": game.number,
            "round": report.round.number,
            "table": report.table.number,
            "name": report.winner.name,
        }

    return run_action(request, accept, default=console_url(event, "late"))


@require_POST
@event_view()
def report_drop(request: EventRequest, event: Event, report_id: int) -> HttpResponse:
    report = _late_report(event, report_id)

    def drop() -> str:
        drop_late_report(report=report, by=request.user)
        return _("The report from table %(table)s was dropped.") % {"table": report.table.number}

    return run_action(request, drop, default=console_url(event, "late"))


# --- the corrections log -----------------------------------------------------------------


CORRECTIONS_PAGE_LIMIT = 1000


@require_GET
@event_view()
def corrections_log(request: EventRequest, event: Event) -> HttpResponse:
    corrections = list(
        GameCorrection.objects.filter(round__event=event).select_related(
            "table", "round", "changed_by"
        )[:CORRECTIONS_PAGE_LIMIT]
    )
    return render(
        request,
        "organizer/corrections.html",
        {"event": event, "corrections": corrections, "limit": CORRECTIONS_PAGE_LIMIT},
    )
