"""The organizer's pages for one event: the console, a table's view, the close-round check,
a player's page and the corrections log.

Terms:
    console        ONE page per event with sections: phase and clock, the round panel
                   (close, undo), late reports, tables, roster, table plan, variants and
                   the corrections log. The *live* sections (phase, round panel, late
                   reports, tables) refresh by polling; the others change only through
                   the organizer's own actions.
    shown round    the round whose seating the tables show: the planned round 1 before play,
                   the open round during a round, the next round between rounds (its seats
                   carry the moves), the last round at the debrief.
    results round  the round whose games the tables count: the open round, or the last one
                   played when no next seating exists.

Every page costs the same number of queries whatever the headcount: the builder loads
players, tables, rounds, seats and games once each and joins them in Python.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tables.models import Game, GameCorrection, GameReport, GameStatus, ReportState, Table
from tables.variants import variant_label
from tournament.forms import (
    MovePlayerForm,
    RenameForm,
    RosterForm,
    SetVariantForm,
    TablePlanForm,
)
from tournament.models import (
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.ordering import name_key
from tournament.polling import etag_from_version, poll_trigger
from tournament.rounds import preview_close, undo_blocker
from tournament.seating import variant_warnings
from tournament.table_plan import (
    BEST_TABLE_SIZE,
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    size_problems,
    suggest_table_plan,
    table_count_options,
)
from tournament.views.organizer import optional_url, owned_event, visible_version

CORRECTIONS_ON_CONSOLE = 8
CORRECTIONS_PAGE_LIMIT = 1000

MOVE_DIRECTIONS = {
    SeatReason.MOVES_UP: "up",
    SeatReason.MOVES_DOWN: "down",
}


def _etag(version: int) -> str:
    return f'"{version}"'


def clock_text(seconds: int | None) -> str:
    """m:ss, as static/js/clock.js shows it, for the first paint and pages without JS."""
    if seconds is None:
        return ""
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes}:{rest:02d}"


def clock_context(event: Event) -> dict:
    seconds = event.clock_seconds_left()
    return {
        "seconds_left": seconds,
        "clock_text": clock_text(seconds),
        "paused": event.clock_is_paused,
        "time_is_up": event.time_is_up(),
    }


@dataclass
class SeatLine:
    """One player at one table of the shown round."""

    player_id: int
    name: str
    reason: str
    reason_label: str
    from_table: int | None
    games_before: int | None
    tie_broken: bool
    games: int | None = None  # games won in the results round, when it is shown

    @property
    def direction(self) -> str:
        return MOVE_DIRECTIONS.get(self.reason, "")


@dataclass
class TableCard:
    table: Table
    variant_label: str
    seats: list[SeatLine] = field(default_factory=list)
    reported: int = 0
    disputed: int = 0
    unconfirmed: int = 0
    phone_url: str | None = None

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def size_problem(self) -> bool:
        return bool(self.seats) and not MIN_TABLE_SIZE <= len(self.seats) <= MAX_TABLE_SIZE


@dataclass
class RosterLine:
    player: Player
    table_number: int | None


@dataclass
class Console:
    """Everything the console page shows, loaded in a fixed number of queries."""

    event: Event
    players: list[Player]
    tables: list[Table]
    rounds: list[Round]
    current: Round | None
    planned: Round | None
    shown: Round | None
    results: Round | None
    cards: list[TableCard]
    roster: list[RosterLine]
    late_reports: list[GameReport]
    corrections: list[GameCorrection]
    corrections_total: int
    undo_blocker: str | None
    last_closed: Round | None

    # --- roster ---
    @property
    def present(self) -> list[Player]:
        return [p for p in self.players if p.status == PlayerStatus.PRESENT]

    @property
    def absent(self) -> list[RosterLine]:
        return [line for line in self.roster if line.player.status == PlayerStatus.ABSENT]

    @property
    def removed(self) -> list[Player]:
        return [p for p in self.players if p.status == PlayerStatus.REMOVED]

    @property
    def on_roster(self) -> list[RosterLine]:
        return [line for line in self.roster if line.player.status != PlayerStatus.REMOVED]

    @property
    def unseated_present(self) -> list[Player]:
        """Present players without a seat in the shown round (they join at the next close)."""
        seated = {line.player.pk for line in self.roster if line.table_number is not None}
        return [p for p in self.present if p.pk not in seated]

    # --- table plan ---
    @property
    def plan_made(self) -> bool:
        return bool(self.tables) and any(r.number == 1 for r in self.rounds)

    @property
    def can_plan(self) -> bool:
        return self.event.phase == Phase.SETUP

    @property
    def suggestion(self):
        return suggest_table_plan(len(self.present))

    @property
    def plan_options(self):
        return table_count_options(len(self.present))

    @property
    def seat_sizes(self) -> dict[int, int]:
        return {card.number: len(card.seats) for card in self.cards}

    @property
    def size_problems(self) -> list[tuple[int, int]]:
        if self.shown is None:
            return []
        return size_problems(self.seat_sizes)

    # --- variants ---
    @property
    def variant_warnings(self) -> list[str]:
        return variant_warnings(self.event, self.tables) if self.tables else []

    @property
    def variants_locked(self) -> bool:
        """Players have seen their rules: a change needs the organizer's confirmation."""
        return self.event.phase != Phase.SETUP

    # --- phase ---
    @property
    def attention_total(self) -> int:
        return sum(card.disputed + card.unconfirmed for card in self.cards)

    @property
    def disputed_total(self) -> int:
        return sum(card.disputed for card in self.cards)

    @property
    def unconfirmed_total(self) -> int:
        return sum(card.unconfirmed for card in self.cards)

    @property
    def reported_total(self) -> int:
        return sum(card.reported for card in self.cards)

    @property
    def tables_without_games(self) -> list[int]:
        return [card.number for card in self.cards if card.seats and not card.reported]


def _shown_and_results(
    event: Event, current: Round | None, planned: Round | None
) -> tuple[Round | None, Round | None]:
    if event.phase in (Phase.SETUP, Phase.STUDY, Phase.PRACTICE):
        return planned, None
    if event.phase == Phase.ROUND:
        return current, current
    if event.phase == Phase.BETWEEN_ROUNDS and planned is not None:
        return planned, None
    return current, current


def build_console(event: Event, *, corrections: int = CORRECTIONS_ON_CONSOLE) -> Console:
    players = sorted(event.players.all(), key=lambda p: name_key(p.name))
    by_player = {p.pk: p for p in players}
    tables = list(event.tables.order_by("number"))
    by_table = {t.pk: t for t in tables}
    rounds = list(event.rounds.select_related("closed_by").order_by("number"))
    by_number = {r.number: r for r in rounds}
    current = by_number.get(event.round_number)
    planned = next((r for r in rounds if r.status == RoundStatus.PLANNED), None)
    shown, results = _shown_and_results(event, current, planned)

    cards = {
        t.pk: TableCard(
            table=t,
            variant_label=variant_label(t.variant, _),
            phone_url=optional_url("phone:table", t.token),
        )
        for t in tables
    }
    wins: Counter[int] = Counter()
    if results is not None:
        for table_id, winner_id, status in Game.objects.filter(round=results).values_list(
            "table_id", "winner_id", "status"
        ):
            card = cards[table_id]
            card.reported += 1
            if status == GameStatus.DISPUTED:
                card.disputed += 1
            else:
                card.unconfirmed += status == GameStatus.UNCONFIRMED
                wins[winner_id] += 1

    table_of_player: dict[int, int] = {}
    if shown is not None:
        reasons = dict(SeatReason.choices)
        for seat in Seat.objects.filter(round=shown).values(
            "player_id", "table_id", "from_table_id", "reason", "games_won_before", "tie_broken"
        ):
            player = by_player[seat["player_id"]]
            from_table = by_table.get(seat["from_table_id"])
            cards[seat["table_id"]].seats.append(
                SeatLine(
                    player_id=player.pk,
                    name=player.name,
                    reason=seat["reason"],
                    reason_label=reasons.get(seat["reason"], ""),
                    from_table=from_table.number if from_table else None,
                    games_before=seat["games_won_before"],
                    tie_broken=seat["tie_broken"],
                    games=wins.get(player.pk, 0) if results is not None else None,
                )
            )
            table_of_player[player.pk] = by_table[seat["table_id"]].number
    for card in cards.values():
        if results is not None:
            card.seats.sort(key=lambda s: (-(s.games or 0), name_key(s.name)))
        else:
            card.seats.sort(key=lambda s: name_key(s.name))

    closed = [r for r in rounds if r.status == RoundStatus.CLOSED]
    last_closed = closed[-1] if closed else None
    following = by_number.get(last_closed.number + 1) if last_closed else None
    following_has_games = following is not None and (
        Game.objects.filter(round=following).exists()
        or GameReport.objects.filter(round=following).exists()
    )

    correction_rows = GameCorrection.objects.filter(round__event=event)
    return Console(
        event=event,
        players=players,
        tables=tables,
        rounds=rounds,
        current=current,
        planned=planned,
        shown=shown,
        results=results,
        cards=list(cards.values()),
        roster=[RosterLine(p, table_of_player.get(p.pk)) for p in players],
        late_reports=list(
            GameReport.objects.filter(round__event=event, state=ReportState.LATE)
            .select_related("table", "winner", "round")
            .order_by("received_at", "pk")
        ),
        corrections=list(
            correction_rows.select_related("table", "round", "changed_by")[:corrections]
        ),
        corrections_total=correction_rows.count(),
        undo_blocker=undo_blocker(event, rounds, following_has_games),
        last_closed=last_closed,
    )


def console_context(
    request: HttpRequest, event: Event, console: Console | None = None, **forms
) -> dict:
    console = console or build_console(event)
    present_seated = sorted(
        (
            (seat.player_id, seat.name)
            for card in console.cards
            for seat in card.seats
            if console.planned is not None
        ),
        key=lambda pair: name_key(pair[1]),
    )
    table_numbers = [t.number for t in console.tables]
    suggestion = console.suggestion
    initial_count = (
        len(console.tables)
        if console.plan_made
        and any(p.table_count == len(console.tables) for p in console.plan_options)
        else (suggestion.table_count if suggestion else None)
    )
    context = {
        "event": event,
        "c": console,
        "etag": _etag(event.version),
        "poll_trigger": poll_trigger(),
        **clock_context(event),
        "projector_url": optional_url("projector:screen", event.projector_token),
        "kit_url": optional_url("kit:event_kit", event.pk),
        "best_table_size": BEST_TABLE_SIZE,
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "roster_form": forms.get("roster_form") or RosterForm(event=event, players=console.players),
        "plan_form": TablePlanForm(
            options=console.plan_options, initial={"table_count": initial_count}
        ),
        "move_form": forms.get("move_form")
        or MovePlayerForm(players=present_seated, tables=table_numbers),
        "variant_form": forms.get("variant_form") or SetVariantForm(),
        "site_messages": list(get_messages(request)),
    }
    return context


@require_GET
@login_required
def event_console(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/event.html", console_context(request, event))


@require_GET
@login_required
@etag_from_version(visible_version)
def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live sections of the console, swapped in by id (polled; 304 when unchanged)."""
    event = owned_event(request, pk)
    return render(request, "organizer/event.html#live_update", console_context(request, event))


# --- one table ---------------------------------------------------------------------------


@dataclass
class GameLine:
    game: Game
    reports: list[GameReport]

    @property
    def needs_attention(self) -> bool:
        return self.game.status in (GameStatus.DISPUTED, GameStatus.UNCONFIRMED)


def _table_round(event: Event, rounds: list[Round], requested: str | None) -> Round | None:
    by_number = {r.number: r for r in rounds}
    if requested:
        try:
            chosen = by_number.get(int(requested))
        except ValueError:
            chosen = None
        if chosen is None:
            raise Http404
        return chosen
    shown, results = _shown_and_results(
        event,
        by_number.get(event.round_number),
        next((r for r in rounds if r.status == RoundStatus.PLANNED), None),
    )
    return results or shown


def table_context(request: HttpRequest, event: Event, number: int) -> dict:
    table = get_object_or_404(Table, event=event, number=number)
    rounds = list(event.rounds.order_by("number"))
    round_ = _table_round(event, rounds, request.GET.get("round"))
    seats: list[Seat] = []
    games: list[GameLine] = []
    wins: Counter[int] = Counter()
    if round_ is not None:
        seats = sorted(
            round_.seats.filter(table=table).select_related("player", "from_table"),
            key=lambda s: name_key(s.player.name),
        )
        for game in (
            Game.objects.filter(round=round_, table=table)
            .select_related("winner")
            .prefetch_related(
                Prefetch("reports", queryset=GameReport.objects.select_related("winner"))
            )
            .order_by("number")
        ):
            games.append(GameLine(game, list(game.reports.all())))
            if game.status != GameStatus.DISPUTED and game.winner_id:
                wins[game.winner_id] += 1
    players = [(seat, wins.get(seat.player_id, 0)) for seat in seats]
    here = reverse("organizer:table", args=[event.pk, number])
    live_url = reverse("organizer:table_live", args=[event.pk, number])
    if request.GET.get("round"):
        here += f"?round={round_.number}"
        live_url += f"?round={round_.number}"
    return {
        "event": event,
        "table": table,
        "variant_label": variant_label(table.variant, _),
        "round": round_,
        "rounds": [r for r in rounds if r.status != RoundStatus.PLANNED],
        "players": players,
        "games": games,
        "can_add": round_ is not None and round_.status == RoundStatus.OPEN,
        "here": here,
        "live_url": live_url,
        "etag": _etag(event.version),
        "poll_trigger": poll_trigger(),
        "phone_url": optional_url("phone:table", table.token),
        **clock_context(event),
        "site_messages": list(get_messages(request)),
        "table_numbers": list(event.tables.order_by("number").values_list("number", flat=True)),
    }


@require_GET
@login_required
def table_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/table.html", table_context(request, event, number))


@require_GET
@login_required
@etag_from_version(visible_version)
def table_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(
        request, "organizer/table.html#live_update", table_context(request, event, number)
    )


# --- closing a round ---------------------------------------------------------------------


@dataclass
class MoveLine:
    move: object  # tournament.movement.Move
    label: str
    not_present: bool


def close_context(request: HttpRequest, event: Event, round_: Round) -> dict:
    preview = preview_close(round_)
    number = round_.number
    tables = {t.number: t for t in event.tables.all()}
    reasons = dict(SeatReason.choices)
    blocks = [
        {
            "table": tables[table_number],
            "variant_label": variant_label(tables[table_number].variant, _),
            "moves": [
                MoveLine(
                    move=move,
                    label=str(reasons.get(move.reason.value, "")),
                    not_present=move.player in preview.not_present,
                )
                for move in moves
            ],
            "next_size": preview.next_sizes.get(table_number, 0),
        }
        for table_number, moves in preview.moves_by_table.items()
    ]
    seated_by_table: dict[int, list[Player]] = defaultdict(list)
    for seat in round_.seats.select_related("player"):
        seated_by_table[seat.table_id].append(seat.player)
    for players in seated_by_table.values():
        players.sort(key=lambda p: name_key(p.name))
    disputes = [
        {"game": game, "players": seated_by_table.get(game.table_id, [])}
        for game in preview.disputed
    ]
    return {
        "event": event,
        "round": round_,
        "preview": preview,
        "blocks": blocks,
        "disputes": disputes,
        "unconfirmed_tables": sorted({game.table.number for game in preview.unconfirmed}),
        "next_size_problems": size_problems(preview.next_sizes) if preview.seats_next_round else [],
        "min_table_size": MIN_TABLE_SIZE,
        "max_table_size": MAX_TABLE_SIZE,
        "etag": _etag(preview.version),
        "poll_trigger": poll_trigger(),
        **clock_context(event),
        "live_url": reverse("organizer:close_round_live", args=[event.pk, number]),
        "here": reverse("organizer:close_round", args=[event.pk, number]),
        "site_messages": list(get_messages(request)),
    }


@require_GET
@login_required
def close_round_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    return _close_live(request, event, number)


@etag_from_version(lambda request, event, number: event.version)
def _close_live(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    return render(
        request, "organizer/close_round.html#live_update", close_context(request, event, round_)
    )


# --- a player ----------------------------------------------------------------------------


def player_context(request: HttpRequest, event: Event, player_id: int, **forms) -> dict:
    player = get_object_or_404(Player, event=event, pk=player_id)
    seats = list(
        player.seats.select_related("round", "table", "from_table").order_by("round__number")
    )
    won = dict(
        Game.objects.counted()
        .filter(winner=player)
        .values_list("round_id")
        .annotate(n=Count("id"))
        .values_list("round_id", "n")
    )
    planned = event.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()
    return {
        "event": event,
        "player": player,
        "history": [(seat, won.get(seat.round_id, 0)) for seat in seats],
        "rename_form": forms.get("rename_form") or RenameForm(initial={"name": player.name}),
        "planned": planned,
        "table_numbers": list(event.tables.order_by("number").values_list("number", flat=True)),
        "site_messages": list(get_messages(request)),
    }


@require_GET
@login_required
def player_page(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    return render(request, "organizer/player.html", player_context(request, event, player_id))


# --- the corrections log -----------------------------------------------------------------


@require_GET
@login_required
def corrections_log(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
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
