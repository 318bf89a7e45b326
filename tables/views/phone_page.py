"""A table's phone page drawn: what players at one table see, for the page, its live part
and every answer that shows the page again (a report's, a refusal's, a debrief answer's).

Terms:
    screen       everything the page shows for the event's phase, read by
                 tables.reads.screens.table_screen (the rule sheet in the study phase only).
    live part    the part of the page that polls for changes (phase, clock, seats, games,
                 moves; ``LIVE_PARTIAL``); an unchanged table answers 304 after one query
                 (tables.views.phone).
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
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tables.forms import ReportForm, WinnerForm
from tables.models import ReportState, Table
from tables.reads.debrief_answers import phone_question
from tables.reads.screens import RoundRead, TableScreen, table_screen
from tables.writes.reporting import ReportResult
from tournament.common.cookies import set_phone_cookie
from tournament.common.inputs import positive_int
from tournament.common.phone_ids import phone_id
from tournament.common.polling import clock_text, poll_trigger, quoted_etag, stop_polling
from tournament.models import Phase, looks_like_token

PAGE = "phone/table.html"
LIVE_PARTIAL = f"{PAGE}#live"
MY_GAMES_COOKIE_AGE = 24 * 60 * 60


def screen_version(shared_version: int, table_version: int) -> str:
    """What a table's phone page depends on: the event's shared state and its own games."""
    return f"{shared_version}.{table_version}"


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


def my_last_key(request: HttpRequest, table: Table) -> str | None:
    """The client key of this phone's last report in the current round, if any."""
    parts = _my_games_parts(request, table)
    return parts[2] if len(parts) > 2 and looks_like_token(parts[2]) else None


def remember_my_game(
    response: HttpResponse, request: HttpRequest, table: Table, result: ReportResult
) -> None:
    """Add the stored report's game to this phone's games (see Terms: my games)."""
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


def render_table_screen(
    request: HttpRequest,
    table: Table,
    template: str,
    *,
    just_reported: int | None = None,
    known: RoundRead | None = None,
    **extra,
) -> HttpResponse:
    """The table's page (``PAGE``) or its live part (``LIVE_PARTIAL``) as this phone sees it
    now; ``extra`` goes into the template's context (a notice, a question to ask).
    ``just_reported`` counts among my games before the cookie says so; ``known`` is the
    round as a write just read it, so it is not read again."""
    mine = _my_games(request, table)
    if just_reported is not None:
        mine.add(just_reported)
    phone = phone_id(request)
    screen = table_screen(
        table, chosen_game=_chosen_game(request), mine=mine, phone=phone, known=known
    )
    if screen.event.phase == Phase.DEBRIEF:
        # The question the projector shows, when the room answers it (tables.views.answers).
        extra["asked"] = phone_question(screen.event, phone)
        extra["answer_url"] = reverse("phone:table_answer", args=[table.token])
    response = render(request, template, _context(screen, **extra))
    if template == LIVE_PARTIAL and not screen.polling:
        return stop_polling(response)
    return response
