"""A table's phone page: what players at one table see, and where they report games.

Terms:
    table link   /t/<token>/, printed as the QR code on the table's tent card. The token
                 is the only credential (no sign-in, no session), so a rotated or mistyped
                 one gets a friendly 404 that says what to do.
    screen       everything the page shows for the event's phase, read by
                 tables.reads.screens.table_screen (the rule sheet in the study phase only).
    live part    the part of the page that polls for changes (phase, clock, seats, games,
                 moves); an unchanged table answers 304 after one query.
    asked game   the "Game k" the report form asks about: the next game, unless a player
                 chose an earlier one to contest (?game=k). The live part's URL carries
                 ?game=k only while that choice holds (see tables.reads.screens), so a phone
                 never stays on an old game after a close, an undo or its own report.
    my games     the game numbers this phone reported in the round, and the key of its
                 last report, remembered in a cookie: the page does not ask the phone to
                 confirm its own report, a double tap on the next game's form is refused,
                 and a name tapped in the list just after another phone reported that
                 name confirms that phone's game rather than starting a phantom one
                 (tables.writes.reporting).
    phone id     a random id in the ``ft_phone`` cookie, set by the table page (or the
                 first report) and kept for weeks, for every table: stored on each report,
                 so tables.writes.reporting knows two reports from one phone (never a
                 confirmation) and a phone that reported at another table this round (held
                 for the organizer). It grants nothing; a phone that refuses cookies gets a
                 new id with each report, and is judged as a phone seen once. Its polls
                 tell the console how many phones reached each table (sightings). The
                 cookie holds the id signed (django.core.signing): an id the server did
                 not hand out, or no cookie, is no id (debrief answers refuse it).

Answers to a report say plainly what became of it, so a phone's script (static/js/phone.js)
can tell them from anything else that may come back (a proxy's error page, a captive
portal's sign-in page, a 500):
    stored       the report is stored, or was already (same client key): the answer
                 carries the header X-Report-Stored with the client key it was sent with.
                 The phone forgets the report.
    refused      the report cannot be taken, for a reason the answer shows (round not
                 started, a player of another table, tricks that do not fit, a rotated
                 link): a 4xx with the header X-Report-Refused. The phone shows the reason
                 and does not send that report again.
    anything else is a fault: the phone keeps the report and sends it again.

Reports are not protected by CSRF: the token in the URL is the only credential and no
cookie grants anything, so a forged cross-site request could do nothing that anyone
holding the link cannot do anyway, while a phone that lost its CSRF cookie (private
mode, in-app QR scanners) would lose a report.
"""

from __future__ import annotations

import re
import secrets
from functools import cache

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, HttpResponseServerError
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tables.forms import ReportForm, WinnerForm
from tables.models import GameStatus, ReportState, Table
from tables.reads.debrief_answers import phone_question
from tables.reads.screens import RoundRead, TableScreen, table_screen
from tables.views.links import table_from_link
from tables.writes.reporting import Outcome, ReportResult, report_game
from tables.writes.second_taps import RetapQuestion
from tables.writes.sightings import note_phone_seen
from tournament.common.cookies import set_phone_cookie
from tournament.common.errors import Refused
from tournament.common.fault_switch import report_should_fail
from tournament.common.inputs import positive_int
from tournament.common.languages import pick_phone_language
from tournament.common.polling import (
    clock_text,
    etag_from_version,
    first_row,
    poll_trigger,
    quoted_etag,
    stop_polling,
)
from tournament.common.requests import HtmxRequest
from tournament.models import Event, Phase, Player, looks_like_token

LIVE_PARTIAL = "phone/table.html#live"
MY_GAMES_COOKIE_AGE = 24 * 60 * 60
PHONE_COOKIE = "ft_phone"
PHONE_COOKIE_AGE = 90 * 24 * 60 * 60
# secrets.token_urlsafe(16) writes 22 characters; anything else is not an id we made.
PHONE_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,32}")
# What a report's answer says of it (see the module's docstring).
STORED_HEADER = "X-Report-Stored"
REFUSED_HEADER = "X-Report-Refused"
REFUSED_STATUS = 409  # Conflict: the state of the round or table does not allow it


# --- helpers ---------------------------------------------------------------------------


def screen_version(shared_version: int, table_version: int) -> str:
    """What a table's phone page depends on: the event's shared state and its own games."""
    return f"{shared_version}.{table_version}"


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
    if phone := _phone_id(request):
        note_phone_seen(table_id=table_id, phone=phone)
    return screen_version(shared_version, table_version)


def _phone_signer() -> signing.Signer:
    return signing.Signer(salt=PHONE_COOKIE)


def signed_phone_id(phone: str) -> str:
    """The cookie's value for ``phone`` (see the module's terms: phone id)."""
    return _phone_signer().sign(phone)


def _phone_id(request: HttpRequest) -> str | None:
    """The id this phone was given (see the module's terms), if it kept a valid one."""
    try:
        value = _phone_signer().unsign(request.COOKIES.get(PHONE_COOKIE, ""))
    except signing.BadSignature:
        return None
    return value if PHONE_ID_PATTERN.fullmatch(value) else None


def _keep_phone_id(response: HttpResponse, request: HttpRequest, phone: str) -> None:
    """Give the phone its id, unless it already holds it: one Set-Cookie per new phone."""
    if _phone_id(request) == phone:
        return
    set_phone_cookie(
        response, request, PHONE_COOKIE, signed_phone_id(phone), max_age=PHONE_COOKIE_AGE
    )


def _my_games_cookie(table: Table) -> str:
    return f"ft-mine-{table.pk}"


def _my_games_parts(request: HttpRequest, table: Table) -> list[str]:
    """The cookie "round:numbers:last key", or [] when it is missing or of another round."""
    parts = request.COOKIES.get(_my_games_cookie(table), "").split(":")
    if positive_int(parts[0]) != table.event.round_number:
        return []
    return parts


def _my_games(request: HttpRequest, table: Table) -> set[int]:
    """Game numbers this phone reported in the current round (a display hint only)."""
    parts = _my_games_parts(request, table)
    numbers = parts[1].split(",") if len(parts) > 1 else []
    return {number for number in map(positive_int, numbers) if number is not None}


def _my_last_key(request: HttpRequest, table: Table) -> str | None:
    """The client key of this phone's last report in the current round, if any."""
    parts = _my_games_parts(request, table)
    return parts[2] if len(parts) > 2 and looks_like_token(parts[2]) else None


def _remember_my_game(
    response: HttpResponse, request: HttpRequest, table: Table, result: ReportResult
) -> None:
    if result.report.state != ReportState.COUNTED:
        return  # a late or dropped report is not a game of the round being played
    numbers = sorted(_my_games(request, table) | {result.report.game_number})[-30:]
    set_phone_cookie(
        response,
        request,
        _my_games_cookie(table),
        f"{result.report.round.number}:{','.join(map(str, numbers))}:{result.report.client_key}",
        max_age=MY_GAMES_COOKIE_AGE,
        path=reverse("phone:table", args=[table.token]),
    )


def _chosen_game(request: HttpRequest) -> int | None:
    return positive_int(request.GET.get("game"))


def outcome_notice(result: ReportResult) -> tuple[str, str]:
    """(kind, message) telling the phone what became of its report."""
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


def _context(screen: TableScreen, **extra) -> dict:
    # A screen that may report or confirm has a round (table_screen sets both after it);
    # the type checker is told by testing it.
    round_ = screen.round_
    form = None
    if screen.can_report and round_ is not None:
        form = WinnerForm(
            auto_id=False,
            initial=ReportForm.fresh_initial(
                round_number=round_.number, game_number=screen.asked_game
            ),
        )
    confirm_form = None
    if screen.confirmable is not None and round_ is not None:
        confirm_form = WinnerForm(
            auto_id=False,
            initial={
                **ReportForm.fresh_initial(
                    round_number=round_.number, game_number=screen.confirmable.number
                ),
                "winner": screen.confirmable.winner_id,
            },
        )
    seconds = screen.event.clock_seconds_left()
    live_url = reverse("phone:table_live", args=[screen.table.token])
    if screen.chosen_game is not None:
        live_url += f"?game={screen.chosen_game}"
    return {
        "screen": screen,
        "table": screen.table,
        "event": screen.event,
        "phase_title": screen.event.phase_title,
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "etag": quoted_etag(screen_version(screen.event.shared_version, screen.table.version)),
        "poll_trigger": poll_trigger(),
        "live_url": live_url,
        "form": form,
        "confirm_form": confirm_form,
        **extra,
    }


def _render_screen(
    request: HttpRequest,
    table: Table,
    template: str,
    *,
    just_reported: int | None = None,
    known: RoundRead | None = None,
    **extra,
) -> HttpResponse:
    mine = _my_games(request, table)
    if just_reported is not None:
        mine.add(just_reported)
    screen = table_screen(
        table,
        chosen_game=_chosen_game(request),
        mine=mine,
        phone=_phone_id(request),
        known=known,
    )
    if screen.event.phase == Phase.DEBRIEF:
        # The question the projector shows, when the room answers it (tables.views.answers).
        extra["asked"] = phone_question(screen.event, _phone_id(request))
        extra["answer_url"] = reverse("phone:table_answer", args=[table.token])
    response = render(request, template, _context(screen, **extra))
    if template == LIVE_PARTIAL and not screen.polling:
        return stop_polling(response)
    return response


# --- views -----------------------------------------------------------------------------


@require_GET
@never_cache
@table_from_link
def table_page(request: HttpRequest, table: Table) -> HttpResponse:
    response = _render_screen(request, table, "phone/table.html")
    phone = _phone_id(request) or secrets.token_urlsafe(16)
    _keep_phone_id(response, request, phone)
    note_phone_seen(table_id=table.pk, phone=phone)
    return response


@require_GET
@never_cache
@etag_from_version(_table_version, early=True)
@table_from_link
def table_live(request: HttpRequest, table: Table) -> HttpResponse:
    return _render_screen(request, table, LIVE_PARTIAL)


def _reported(
    request: HtmxRequest, table: Table, result: ReportResult, phone: str, client_key: str
) -> HttpResponse:
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
        response = _render_screen(
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
    _remember_my_game(response, request, table, result)
    _keep_phone_id(response, request, phone)
    response[STORED_HEADER] = client_key
    return response


def _refused(request: HtmxRequest, table: Table, message: str) -> HttpResponse:
    """The page with the reason a report cannot be taken; marked, so no phone retries it."""
    if request.htmx:
        table.refresh_from_db(fields=["version"])
        table.event.refresh_from_db()
        response = _render_screen(request, table, LIVE_PARTIAL, notice=("error", message))
        response.status_code = REFUSED_STATUS
    else:
        messages.error(request, message)
        response = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    response[REFUSED_HEADER] = "1"
    return response


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
    template = LIVE_PARTIAL if request.htmx else "phone/table.html"
    response = _render_screen(request, table, template, ask=ask)
    response.status_code = REFUSED_STATUS
    response[REFUSED_HEADER] = "1"
    return response


def _fault() -> HttpResponse:
    """What the test-only fault switch answers instead of taking a report."""
    return HttpResponseServerError("<h1>Server Error (500)</h1>")


@csrf_exempt
@require_POST
@table_from_link
def report_winner(request: HtmxRequest, table: Table) -> HttpResponse:
    if report_should_fail():
        return _fault()
    form = WinnerForm(request.POST)
    if not form.is_valid():
        return _refused(request, table, _("This report was incomplete. Tap the winner again."))
    # Only the id: the write reads who is seated under its lock, refuses anyone else, and
    # names the winner from there (one query less than reading the player here first).
    winner = Player(pk=form.cleaned_data["winner"], event_id=table.event_id)
    phone = _phone_id(request) or secrets.token_urlsafe(16)
    try:
        result = report_game(
            table=table,
            round_number=form.cleaned_data["round_number"],
            game_number=form.cleaned_data["game_number"],
            client_key=form.cleaned_data["client_key"],
            winner=winner,
            previous_key=_my_last_key(request, table),
            tapped=True,
            phone=phone,
            retap_checked=form.cleaned_data["retap_checked"],
        )
    except RetapQuestion as question:
        return _ask_about_retap(request, table, question, form)
    except Refused as refused:
        return _refused(request, table, refused.message)
    return _reported(request, table, result, phone, form.cleaned_data["client_key"])


@csrf_exempt  # a language pick risks nothing; the link in the URL is the credential
@require_POST
@table_from_link
def choose_language(request: HttpRequest, table: Table) -> HttpResponse:
    """This phone's own language, kept for a year; an empty pick follows the room again."""
    return pick_phone_language(request, reverse("phone:table", args=[table.token]))
