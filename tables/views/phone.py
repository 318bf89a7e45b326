"""A table's phone page: what players at one table see, and where they report games.

Terms:
    table link   /t/<token>/, printed as the QR code on the table's tent card. The token
                 is the only credential (no sign-in, no session), so a rotated or mistyped
                 one gets a friendly 404 that says what to do.
    page         the table's screen, its live part, the asked game and my games, drawn by
                 tables.views.phone_page; a report's answers (stored, refused, fault) are
                 tables.views.report_answers.
    phone id     the ``ft_phone`` cookie (tournament.common.phone_ids), set by the table
                 page (or the first report): stored on each report, so
                 tables.writes.reporting knows two reports from one phone (never a
                 confirmation) and a phone that reported at another table this round (held
                 for the organizer). Its polls tell the console how many phones reached
                 each table (sightings).
    retap        a quick second tap of the same name, asked about before it counts
                 (tables.writes.second_taps): answered as refused, so no phone resends it.

Reports are not protected by CSRF: the token in the URL is the only credential and no
cookie grants anything, so a forged cross-site request could do nothing that anyone
holding the link cannot do anyway, while a phone that lost its CSRF cookie (private
mode, in-app QR scanners) would lose a report.
"""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tables.forms import WinnerForm
from tables.models import Table
from tables.views.links import table_from_link
from tables.views.phone_page import (
    LIVE_PARTIAL,
    PAGE,
    my_last_key,
    render_table_screen,
    screen_version,
)
from tables.views.report_answers import (
    REFUSED_HEADER,
    REFUSED_STATUS,
    answer_fault,
    answer_refused,
    answer_stored,
)
from tables.writes.reporting import report_game
from tables.writes.second_taps import RetapQuestion
from tables.writes.sightings import note_phone_seen
from tournament.common.errors import Refused
from tournament.common.fault_switch import report_should_fail
from tournament.common.languages import pick_phone_language
from tournament.common.phone_ids import keep_phone_id, new_phone_id, phone_id
from tournament.common.polling import etag_from_version, first_row
from tournament.common.requests import HtmxRequest
from tournament.models import Event, Player, looks_like_token


@cache
def _table_version_sql() -> str:
    # Names from the models, so a renamed table or column cannot leave this behind.
    table, event = Table._meta, Event._meta
    shared, version = event.get_field("shared_version"), table.get_field("version")
    return (
        f'SELECT e."{shared.column}", t."{version.column}", t."{table.pk.column}" '
        f'FROM "{table.db_table}" t JOIN "{event.db_table}" e '
        f'ON e."{event.pk.column}" = t."{table.get_field("event").column}" '
        f'WHERE t."{table.get_field("token").column}" = %s'
    )


def _table_version(request: HttpRequest, token: str) -> str | None:
    """The phone's ETag in one prepared query (see polling.first_row): unchanged polls are
    most of the room's requests. The poll also counts as the phone's sighting (kept in
    memory, written in batches: tables.writes.sightings)."""
    if not looks_like_token(token):
        return None
    found = first_row(_table_version_sql(), (token,))
    if found is None:
        return None
    shared_version, table_version, table_id = found
    if phone := phone_id(request):
        note_phone_seen(table_id=table_id, phone=phone)
    return screen_version(shared_version, table_version)


# --- views -----------------------------------------------------------------------------


@require_GET
@never_cache
@table_from_link
def table_page(request: HttpRequest, table: Table) -> HttpResponse:
    response = render_table_screen(request, table, PAGE)
    phone = phone_id(request) or new_phone_id()
    keep_phone_id(response, request, phone)
    note_phone_seen(table_id=table.pk, phone=phone)
    return response


@require_GET
@never_cache
@etag_from_version(_table_version, early=True)
@table_from_link
def table_live(request: HttpRequest, table: Table) -> HttpResponse:
    return render_table_screen(request, table, LIVE_PARTIAL)


def _ask_about_retap(
    request: HtmxRequest, table: Table, question: RetapQuestion, form: WinnerForm
) -> HttpResponse:
    """A quick retap, not stored: the page asks "Another game for Ivo?", whose "yes" sends
    the same report again (same key: a yes tapped twice counts once) with retap_checked.
    Marked as refused, so a phone's script shows it rather than sending it again."""
    table.refresh_from_db(fields=["version"])
    table.event.refresh_from_db()
    ask = {
        "question": question.message,
        "winner": question.winner,
        "number": question.number,
        "round_number": form.cleaned_data["round_number"],
        "client_key": form.cleaned_data["client_key"],
    }
    template = LIVE_PARTIAL if request.htmx else PAGE
    response = render_table_screen(request, table, template, ask=ask)
    response.status_code = REFUSED_STATUS
    response[REFUSED_HEADER] = "1"
    return response


@csrf_exempt
@require_POST
@table_from_link
def report_winner(request: HtmxRequest, table: Table) -> HttpResponse:
    if report_should_fail():
        return answer_fault()
    form = WinnerForm(request.POST)
    if not form.is_valid():
        return answer_refused(
            request, table, _("This report was incomplete. Tap the winner again.")
        )
    # Only the id: the write reads who is seated under its lock, refuses anyone else, and
    # names the winner from there (one query less than reading the player here first).
    winner = Player(pk=form.cleaned_data["winner"], event_id=table.event_id)
    phone = phone_id(request) or new_phone_id()
    try:
        result = report_game(
            table=table,
            round_number=form.cleaned_data["round_number"],
            game_number=form.cleaned_data["game_number"],
            client_key=form.cleaned_data["client_key"],
            winner=winner,
            previous_key=my_last_key(request, table),
            tapped=True,
            phone=phone,
            retap_checked=form.cleaned_data["retap_checked"],
        )
    except RetapQuestion as question:
        return _ask_about_retap(request, table, question, form)
    except Refused as refused:
        return answer_refused(request, table, refused.message)
    return answer_stored(request, table, result, phone, form.cleaned_data["client_key"])


@csrf_exempt  # a language pick risks nothing; the link in the URL is the credential
@require_POST
@table_from_link
def choose_language(request: HttpRequest, table: Table) -> HttpResponse:
    """This phone's own language, kept for a year; an empty pick follows the room again."""
    return pick_phone_language(request, reverse("phone:table", args=[table.token]))
