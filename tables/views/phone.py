"""A table's phone page: what players at one table see, and where they report games.

Terms:
    table link   /t/<token>/, printed as the QR code on the table's tent card. The token
                 is the only credential (no sign-in, no session), so a rotated or mistyped
                 one gets a friendly 404 that says what to do.
    screen       everything the page shows for the event's phase (see TableScreen).
    live part    the part of the page that polls for changes (phase, clock, seats, games,
                 moves); an unchanged event answers 304 after one query.
    rule sheet   the table's own rules, shown during the study phase only. Once study
                 ends the sheet is gone from the phone: "the rules are taken away".
    asked game   the "Game k" the report form asks about: the next game, or an earlier
                 one that a player chose to confirm or contest.
    my games     the game numbers this phone reported in the round, remembered in a
                 cookie, so the page does not ask it to confirm its own report.

Reports are not protected by CSRF: the token in the URL is the only credential and no
cookie grants anything, so a forged cross-site request could do nothing that anyone
holding the link cannot do anyway, while a phone that lost its CSRF cookie (private
mode, in-app QR scanners) would lose a report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tables.forms import ReportForm, TricksForm, WinnerForm
from tables.models import Game, GameStatus, ReportState, Table
from tables.reporting import Outcome, ReportResult, next_game_number, report_game
from tables.variants import DECK_SIZE, RuleSheet, cards_per_player, rule_sheet
from tournament.exceptions import Refused
from tournament.models import Event, Phase, Player, Round, RoundStatus, Seat, SeatReason
from tournament.ordering import name_key
from tournament.polling import etag_from_version, poll_trigger, quoted_etag, stop_polling

LIVE_PARTIAL = "phone/table.html#live"
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
MY_GAMES_COOKIE_AGE = 24 * 60 * 60


# --- what the page shows -------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Where one player of this table goes for the next round, and why."""

    name: str
    to_table: int | None  # None: not seated next round (absent or removed)
    direction: str  # "up", "down", "stays" or "" when unknown
    reason: str
    games: int | None
    tie_broken: bool


@dataclass(frozen=True)
class Result:
    name: str
    games: int


@dataclass
class TableScreen:
    table: Table
    event: Event
    round: Round | None = None
    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    sheet: RuleSheet | None = None
    can_report: bool = False
    next_game: int = 1
    asked_game: int = 1
    confirmable: Game | None = None
    moves: list[Move] = field(default_factory=list)
    arriving: list[str] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    is_final: bool = False

    @property
    def polling(self) -> bool:
        return self.event.phase != Phase.DEBRIEF

    @property
    def wins(self) -> dict[int, int]:
        counted: dict[int, int] = {}
        for game in self.games:
            if game.status != GameStatus.DISPUTED and game.winner_id:
                counted[game.winner_id] = counted.get(game.winner_id, 0) + 1
        return counted

    @property
    def winner_choices(self) -> list[tuple[Player, int]]:
        wins = self.wins
        return [(player, wins.get(player.pk, 0)) for player in self.players]

    @property
    def asked_game_exists(self) -> bool:
        return self.asked_game < self.next_game


def phase_title(event: Event) -> str:
    if event.phase == Phase.SETUP:
        return _("Waiting to start")
    if event.phase == Phase.STUDY:
        return _("Study the rules")
    if event.phase == Phase.PRACTICE:
        return _("Practice")
    if event.phase == Phase.ROUND:
        return _("Round %(number)s of %(total)s") % {
            "number": event.round_number,
            "total": event.rounds_planned,
        }
    if event.phase == Phase.BETWEEN_ROUNDS:
        return _("Round %(number)s is over") % {"number": event.round_number}
    return _("Debrief")


def clock_text(seconds: int | None) -> str:
    """m:ss, as static/js/clock.js writes it, so the page reads right before JS runs."""
    if seconds is None:
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"


def shown_round_number(event: Event) -> int:
    """The round whose seats the phones show: round 1 (the home tables) until play
    starts, then the round being played or the last one closed."""
    if event.phase in (Phase.SETUP, Phase.STUDY, Phase.PRACTICE):
        return 1
    return event.round_number


def move_direction(from_table: int, to_table: int) -> str:
    """Which arrow the phones show for a move: "up", "down" or "stays"."""
    if to_table > from_table:
        return "up"
    if to_table < from_table:
        return "down"
    return "stays"


def _moves(table: Table, round_: Round, players: list[Player]) -> tuple[list[Move], list[str]]:
    """Where this table's players go next round, and who comes to this table; one query."""
    ids = {player.pk for player in players}
    next_seats = list(
        Seat.objects.filter(round__event_id=round_.event_id, round__number=round_.number + 1)
        .filter(Q(player_id__in=ids) | Q(table=table))
        .select_related("table", "player")
    )
    going = {seat.player_id: seat for seat in next_seats if seat.player_id in ids}
    moves = []
    for player in players:
        seat = going.get(player.pk)
        if seat is None:
            moves.append(Move(player.name, None, "", _("Not seated next round"), None, False))
            continue
        moves.append(
            Move(
                name=player.name,
                to_table=seat.table.number,
                direction=move_direction(table.number, seat.table.number),
                reason=SeatReason(seat.reason).label,
                games=seat.games_won_before,
                tie_broken=seat.tie_broken,
            )
        )
    arriving = sorted(
        (seat.player.name for seat in next_seats if seat.player_id not in ids),
        key=name_key,
    )
    return moves, arriving


def _results(screen: TableScreen) -> list[Result]:
    wins = screen.wins
    ranked = sorted(screen.players, key=lambda p: (-wins.get(p.pk, 0), name_key(p.name)))
    return [Result(player.name, wins.get(player.pk, 0)) for player in ranked]


def table_screen(
    table: Table, *, asked_game: int | None = None, mine: set[int] = frozenset()
) -> TableScreen:
    """Everything a table's phone shows now; a fixed number of queries at any event size."""
    event = table.event
    screen = TableScreen(table=table, event=event)
    if event.phase == Phase.DEBRIEF and event.round_number == 0:
        return screen
    screen.round = Round.objects.filter(event=event, number=shown_round_number(event)).first()
    if screen.round is None:
        return screen
    # The table's own order (accents and case ignored), as movement and tie-breaks use it.
    screen.players = sorted(
        (seat.player for seat in screen.round.seats.filter(table=table).select_related("player")),
        key=lambda player: name_key(player.name),
    )
    if event.phase == Phase.STUDY:
        # Rules exist on this page in the study phase only, for this table only.
        seated = len(screen.players)
        screen.sheet = rule_sheet(
            table.variant,
            players=seated if 1 <= seated <= DECK_SIZE else None,
            translate=_,
        )
        return screen
    if event.phase in (Phase.SETUP, Phase.PRACTICE):
        return screen

    screen.games = list(
        Game.objects.filter(round=screen.round, table=table).select_related("winner")
    )
    screen.next_game = max((game.number for game in screen.games), default=0) + 1
    screen.can_report = screen.round.status == RoundStatus.OPEN and bool(screen.players)
    if screen.can_report:
        if asked_game is not None and 1 <= asked_game < screen.next_game:
            screen.asked_game = asked_game
        else:
            screen.asked_game = screen.next_game
            latest = screen.games[-1] if screen.games else None
            if (
                latest is not None
                and latest.status == GameStatus.UNCONFIRMED
                and latest.number not in mine
            ):
                screen.confirmable = latest
    if screen.round.status == RoundStatus.CLOSED:
        screen.is_final = screen.round.number >= event.rounds_planned
        if event.phase == Phase.BETWEEN_ROUNDS and not screen.is_final:
            screen.moves, screen.arriving = _moves(table, screen.round, screen.players)
        screen.results = _results(screen)
    return screen


# --- helpers ---------------------------------------------------------------------------


def looks_like_token(token: str) -> bool:
    """Whether a link's token could be one we made (URL-safe base64), checked before any
    query so that a mangled link is a 404, never a database error."""
    return TOKEN_PATTERN.fullmatch(token) is not None


def _table(token: str) -> Table | None:
    if not looks_like_token(token):
        return None
    return Table.objects.filter(token=token).select_related("event").first()


def screen_version(shared_version: int, table_version: int) -> str:
    """What a table's phone page depends on: the event's shared state and its own games."""
    return f"{shared_version}.{table_version}"


def _table_version(request: HttpRequest, token: str) -> str | None:
    if not looks_like_token(token):
        return None
    versions = Table.objects.filter(token=token).values_list("event__shared_version", "version")
    found = versions.first()
    return None if found is None else screen_version(*found)


def link_invalid(request: HttpRequest, *, for_player: bool = False) -> HttpResponse:
    """The friendly 404 for a rotated or mistyped link. A poll or a tap from a page that
    was open before the link changed reloads the whole page, so the phone shows it."""
    response = render(request, "phone/link_invalid.html", {"for_player": for_player}, status=404)
    if request.htmx:
        response["HX-Refresh"] = "true"
    return response


def _my_games_cookie(table: Table) -> str:
    return f"ft-mine-{table.pk}"


def _my_games(request: HttpRequest, table: Table) -> set[int]:
    """Game numbers this phone reported in the current round (a display hint only)."""
    raw = request.COOKIES.get(_my_games_cookie(table), "")
    round_part, _sep, numbers = raw.partition(":")
    if round_part != str(table.event.round_number):
        return set()
    return {int(n) for n in numbers.split(",") if n.isdigit()}


def _remember_my_game(
    response: HttpResponse, request: HttpRequest, table: Table, result: ReportResult
) -> None:
    if result.outcome not in (Outcome.RECORDED, Outcome.CONFIRMED, Outcome.DISPUTED):
        return
    numbers = sorted(_my_games(request, table) | {result.report.game_number})[-30:]
    response.set_cookie(
        _my_games_cookie(table),
        f"{result.report.round.number}:{','.join(map(str, numbers))}",
        max_age=MY_GAMES_COOKIE_AGE,
        path=reverse("phone:table", args=[table.token]),
        samesite="Lax",
        httponly=True,
    )


def _asked_game(request: HttpRequest) -> int | None:
    value = request.GET.get("game", "")
    return int(value) if value.isdigit() else None


def outcome_notice(result: ReportResult) -> tuple[str, str]:
    """(kind, message) telling the phone what became of its report."""
    report = result.report
    values = {"number": report.game_number, "name": report.winner.name}
    if report.state == ReportState.DROPPED:
        return "warn", _("The organizer set this report aside.")
    if result.outcome == Outcome.LATE or report.state == ReportState.LATE:
        return "warn", _("This round is closed. Your report was kept for the organizer.")
    game = result.game
    if result.outcome == Outcome.DISPUTED or (game and game.status == GameStatus.DISPUTED):
        return "warn", _(
            "Game %(number)s: another phone named someone else — the organizer will settle it."
        ) % values
    if result.outcome == Outcome.CONFIRMED or (game and game.status == GameStatus.CONFIRMED):
        return "good", _("Game %(number)s confirmed: %(name)s won.") % values
    return "good", _("Game %(number)s recorded: %(name)s won.") % values


def _context(screen: TableScreen, **extra) -> dict:
    form = None
    if screen.can_report:
        form = WinnerForm(
            auto_id=False,
            initial=ReportForm.fresh_initial(
                round_number=screen.round.number, game_number=screen.asked_game
            ),
        )
    confirm_form = None
    if screen.confirmable is not None:
        confirm_form = WinnerForm(
            auto_id=False,
            initial={
                **ReportForm.fresh_initial(
                    round_number=screen.round.number, game_number=screen.confirmable.number
                ),
                "winner": screen.confirmable.winner_id,
            },
        )
    seconds = screen.event.clock_seconds_left()
    live_url = reverse("phone:table_live", args=[screen.table.token])
    if screen.asked_game != screen.next_game:
        live_url += f"?game={screen.asked_game}"
    return {
        "screen": screen,
        "table": screen.table,
        "event": screen.event,
        "phase_title": phase_title(screen.event),
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
    **extra,
) -> HttpResponse:
    mine = _my_games(request, table)
    if just_reported is not None:
        mine.add(just_reported)
    screen = table_screen(table, asked_game=_asked_game(request), mine=mine)
    response = render(request, template, _context(screen, **extra))
    if template == LIVE_PARTIAL and not screen.polling:
        return stop_polling(response)
    return response


# --- views -----------------------------------------------------------------------------


@require_GET
@never_cache
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token)
    if table is None:
        return link_invalid(request)
    return _render_screen(request, table, "phone/table.html")


@require_GET
@never_cache
@etag_from_version(_table_version)
def table_live(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token)
    if table is None:
        return link_invalid(request)
    return _render_screen(request, table, LIVE_PARTIAL)


def _reported(request: HttpRequest, table: Table, result: ReportResult) -> HttpResponse:
    kind, message = outcome_notice(result)
    if request.htmx:
        # The report changed the table's version (maybe the phase too since the page was
        # loaded): show it as it is now, with the ETag the next poll should send.
        table.refresh_from_db(fields=["version"])
        table.event.refresh_from_db()
        response = _render_screen(
            request,
            table,
            LIVE_PARTIAL,
            notice=(kind, message),
            just_reported=result.report.game_number,
        )
    else:
        (messages.success if kind == "good" else messages.warning)(request, message)
        response = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    _remember_my_game(response, request, table, result)
    return response


def _refused(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    if request.htmx:
        table.refresh_from_db(fields=["version"])
        table.event.refresh_from_db()
        return _render_screen(request, table, LIVE_PARTIAL, notice=("error", message))
    messages.error(request, message)
    return HttpResponseRedirect(reverse("phone:table", args=[table.token]))


@csrf_exempt
@require_POST
def report_winner(request: HttpRequest, token: str) -> HttpResponse:
    table = _table(token)
    if table is None:
        return link_invalid(request)
    form = WinnerForm(request.POST)
    if not form.is_valid():
        return _refused(request, table, _("This report was incomplete. Tap the winner again."))
    winner = Player.objects.filter(event_id=table.event_id, pk=form.cleaned_data["winner"]).first()
    if winner is None:
        return _refused(request, table, _("That player is not seated at this table in this round."))
    try:
        result = report_game(
            table=table,
            round_number=form.cleaned_data["round_number"],
            game_number=form.cleaned_data["game_number"],
            client_key=form.cleaned_data["client_key"],
            winner=winner,
        )
    except Refused as refused:
        return _refused(request, table, refused.message)
    return _reported(request, table, result)


def _tricks_form(table: Table, data=None) -> TricksForm | None:
    """The tricks form for the open round, or, when posted, for the round the form names:
    a round closed meanwhile still gets its players, so the late report is kept.

    None when no game can be reported at this table (no such round, nobody seated).
    """
    event = table.event
    number = event.round_number
    if data is not None and str(data.get("round_number", "")).isdigit():
        number = int(data["round_number"])
    round_ = Round.objects.filter(event=event, number=number).first()
    if round_ is None or (data is None and round_.status != RoundStatus.OPEN):
        return None
    players = sorted(
        (seat.player for seat in round_.seats.filter(table=table).select_related("player")),
        key=lambda player: name_key(player.name),
    )
    if not players:
        return None
    cards = cards_per_player(min(len(players), DECK_SIZE))
    if data is not None:
        return TricksForm(data, players=players, cards=cards)
    initial = ReportForm.fresh_initial(
        round_number=round_.number, game_number=next_game_number(round=round_, table=table)
    )
    return TricksForm(initial=initial, players=players, cards=cards)


@csrf_exempt
@require_http_methods(["GET", "POST"])
@never_cache
def report_tricks(request: HttpRequest, token: str) -> HttpResponse:
    """A game the clock cut off: tricks so far per player; the leader wins."""
    table = _table(token)
    if table is None:
        return link_invalid(request)
    back = HttpResponseRedirect(reverse("phone:table", args=[table.token]))
    if request.method == "GET":
        form = _tricks_form(table) if table.event.phase == Phase.ROUND else None
        return back if form is None else _render_tricks(request, table, form)

    form = _tricks_form(table, request.POST)
    if form is None:
        messages.error(request, _("No game can be reported at this table now."))
        return back
    if not form.is_valid():
        return _render_tricks(request, table, form, status=400)
    try:
        result = report_game(
            table=table,
            round_number=form.cleaned_data["round_number"],
            game_number=form.cleaned_data["game_number"],
            client_key=form.cleaned_data["client_key"],
            tricks=form.tricks(),
        )
    except Refused as refused:
        form.add_error(None, refused.message)
        return _render_tricks(request, table, form, status=400)
    return _reported(request, table, result)


def _render_tricks(
    request: HttpRequest, table: Table, form: TricksForm, status: int = 200
) -> HttpResponse:
    seconds = table.event.clock_seconds_left()
    return render(
        request,
        "phone/tricks.html",
        {
            "table": table,
            "event": table.event,
            "form": form,
            "game_number": form["game_number"].value(),
            "phase_title": phase_title(table.event),
            "seconds_left": seconds,
            "clock_text": clock_text(seconds),
        },
        status=status,
    )
