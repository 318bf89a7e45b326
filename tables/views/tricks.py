"""A game the clock cut off, reported from a table's phone: the tricks each player took so
far, from which the leader wins (tables.writes.reporting names the winner, so the phone
never says which rule applies). The same link, answers and outbox as a one-tap report
(tables.views.phone, tables.views.report_answers).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tables.forms import ReportForm, TricksForm
from tables.models import Table
from tables.reads.screens import seated_players
from tables.rules.deal import tricks_per_game
from tables.rules.variants import DECK_SIZE
from tables.views.links import table_from_link
from tables.views.report_answers import (
    REFUSED_HEADER,
    answer_fault,
    answer_refused,
    answer_stored,
)
from tables.writes.reporting import next_game_number, report_game
from tournament.common.errors import Refused
from tournament.common.fault_switch import report_should_fail
from tournament.common.inputs import positive_int
from tournament.common.phone_ids import new_phone_id, phone_id
from tournament.common.polling import clock_text
from tournament.common.requests import HtmxRequest
from tournament.models import Phase, Round, RoundStatus


def _tricks_form(table: Table, data=None) -> TricksForm | None:
    """The tricks form for the open round, or, when posted, for the round the form names:
    a round closed meanwhile still gets its players, so the late report is kept.

    None when no game can be reported at this table (no such round, nobody seated).
    """
    event = table.event
    posted = None if data is None else positive_int(data.get("round_number"))
    number = event.round_number if posted is None else posted
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None or (data is None and round_.status != RoundStatus.OPEN):
        return None
    players = seated_players(round_, table)
    if not players:
        return None
    tricks = tricks_per_game(min(len(players), DECK_SIZE))
    if data is not None:
        return TricksForm(data, players=players, tricks_per_game=tricks)
    initial = ReportForm.fresh_initial(
        round_number=round_.number, game_number=next_game_number(round_=round_, table=table)
    )
    return TricksForm(initial=initial, players=players, tricks_per_game=tricks)


@csrf_exempt
@require_http_methods(["GET", "POST"])
@never_cache
@table_from_link
def report_tricks(request: HtmxRequest, table: Table) -> HttpResponse:
    """A game the clock cut off: tricks so far per player; the leader wins."""
    back = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    if request.method == "GET":
        form = _tricks_form(table) if table.event.phase == Phase.ROUND else None
        return back if form is None else _render_tricks(request, table, form)

    if report_should_fail():
        return answer_fault()
    form = _tricks_form(table, request.POST)
    if form is None:
        return answer_refused(request, table, _("No game can be reported at this table now."))
    if not form.is_valid():
        return _render_tricks(request, table, form, status=400)
    phone = phone_id(request) or new_phone_id()
    try:
        result = report_game(
            table=table,
            round_number=form.cleaned_data["round_number"],
            game_number=form.cleaned_data["game_number"],
            client_key=form.cleaned_data["client_key"],
            tricks=form.tricks(),
            phone=phone,
        )
    except Refused as refused:
        form.add_error(None, refused.message)
        return _render_tricks(request, table, form, status=400)
    return answer_stored(request, table, result, phone, form.cleaned_data["client_key"])


def _render_tricks(
    request: HttpRequest, table: Table, form: TricksForm, status: int = 200
) -> HttpResponse:
    """The tricks page; with a 4xx status it shows why the tricks were refused."""
    seconds = table.event.clock_seconds_left()
    response = render(
        request,
        "phone/tricks.html",
        {
            "table": table,
            "event": table.event,
            "form": form,
            "game_number": form["game_number"].value(),
            "phase_title": table.event.phase_title,
            "seconds_left": seconds,
            "clock_text": clock_text(seconds),
        },
        status=status,
    )
    if status >= 400:
        response[REFUSED_HEADER] = "1"
    return response
