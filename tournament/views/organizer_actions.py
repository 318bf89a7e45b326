"""The console's actions: every POST that changes an event, each through one bridge function.

Terms:
    action    a POST answered with a redirect back to where it came from (the `next`
              field, else the console section it belongs to) and a message: what was
              done, or why it was refused. Forms whose input can be wrong (roster,
              rename, move, variant) are shown again with what was typed and the errors.
    confirmed the organizer ticked "change it anyway" for a variant after the players
              have seen their rules, or agreed that the debrief makes the results final
              (the browser's confirm dialog, or the debrief page without JavaScript).
    expected  what the button's page showed (the phase, the round whose close to undo),
              posted back so that a double click or a second tab is refused instead of
              doing the step twice (see tournament.writes.rounds).

Numbers in a POST (table, round, player) are read with tournament.common.inputs.positive_int:
anything else is refused with a message, never a server error.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tables.models import KEPT_FOR_THE_ORGANIZER, Game, GameReport, ReportState, Table
from tables.rules.variants import variant_label
from tables.writes.corrections import (
    accept_late_report,
    add_game,
    delete_game,
    drop_late_report,
    settle_game,
)
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.forms import CloseRoundForm, MovePlayerForm, RenameForm, RosterForm, SetVariantForm
from tournament.models import (
    DebriefStep,
    Event,
    PathsHighlight,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
)
from tournament.reads.console import build_console
from tournament.reads.debrief import debrief_slides, parse_slide_key
from tournament.views.organizer import (
    console_url,
    get_goes_to,
    owned_event,
    refused_form,
    run_action,
)
from tournament.views.organizer_console import close_context, console_context, player_context
from tournament.writes.debrief_bank import set_paths_highlight, show_question
from tournament.writes.finishing import finish_event, reopen_event
from tournament.writes.rounds import (
    ClockAction,
    advance_phase,
    change_clock,
    close_round,
    reveal_rules,
    reveal_table,
    start_debrief,
    step_debrief,
    undo_close_round,
)
from tournament.writes.seating import (
    add_players,
    move_player,
    redraw_table_variant,
    redraw_variants,
    remove_player,
    rename_player,
    rotate_table_link,
    seat_players,
    set_player_status,
    set_sheet_language,
    set_table_variant,
    use_classic_variants,
)

# --- roster ------------------------------------------------------------------------------


@get_goes_to(lambda pk: console_url(pk, "roster"))
@login_required
def roster_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    console = build_console(event)
    form = RosterForm(request.POST, request.FILES, event=event, players=console.players)
    if form.is_valid():
        try:
            added = add_players(event=event, names=form.accepted_names)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            count = len(added.players)
            message = ngettext("Added %(count)s player.", "Added %(count)s players.", count) % {
                "count": count
            }
            messages.success(request, f"{message} {added.joining_note}".strip())
            return redirect(console_url(event, "roster"))
    return refused_form(
        request,
        "organizer/event.html",
        console_context(request, event, console, roster_form=form),
        page_url=console_url(event, "roster"),
    )


def _player(event: Event, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("event"), event=event, pk=player_id)


@require_POST
@login_required
def player_status(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    player = _player(event, player_id)
    status = request.POST.get("status")
    if status not in (PlayerStatus.PRESENT, PlayerStatus.ABSENT):
        messages.error(request, _("Choose present or absent."))
        return redirect(console_url(event, f"player-{player.pk}"))
    table = None
    if request.POST.get("table"):
        # An empty choice means the lowest table; a number must name one of the tables.
        number = positive_int(request.POST["table"])
        table = Table.objects.filter(event=event, number=number).first() if number else None
        if table is None:
            messages.error(request, _("Choose one of the tables, or the lowest table."))
            return redirect(console_url(event, f"player-{player.pk}"))

    def change() -> str:
        changed = set_player_status(player=player, status=status, table=table)
        planned, seat = changed.planned_round, changed.seat
        values = {"name": player.name}
        if status == PlayerStatus.ABSENT:
            if planned is not None:
                values["number"] = planned.number
                return _("%(name)s is absent: not seated in round %(number)s.") % values
            return _("%(name)s is absent: not seated when this round closes.") % values
        if seat is not None:
            values |= {"table": seat.table.number, "number": planned.number}
            return _("%(name)s is present: table %(table)s in round %(number)s.") % values
        return _("%(name)s is present: they join the lowest table when this round closes.") % values

    return run_action(request, change, default=console_url(event, f"player-{player.pk}"))


def _player_url(pk: int, player_id: int) -> str:
    return reverse("organizer:player", args=[pk, player_id])


@get_goes_to(_player_url)
@login_required
def player_rename(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    player = _player(event, player_id)
    form = RenameForm(request.POST)
    if form.is_valid():
        old = player.name
        try:
            rename_player(player=player, name=form.cleaned_data["name"])
        except Refused as refused:
            form.add_error("name", refused.message)
        else:
            messages.success(
                request, _("%(old)s is now %(new)s.") % {"old": old, "new": player.name}
            )
            return redirect(console_url(event, f"player-{player.pk}"))
    return refused_form(
        request,
        "organizer/player.html",
        player_context(request, event, player.pk, rename_form=form),
        page_url=_player_url(event.pk, player.pk),
    )


@require_POST
@login_required
def player_remove(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    player = _player(event, player_id)
    name = player.name

    def remove() -> str:
        if remove_player(player=player):
            return _("%(name)s was deleted from the roster.") % {"name": name}
        return _("%(name)s was removed. The rounds they played keep their results.") % {
            "name": name
        }

    return run_action(request, remove, default=console_url(event, "roster"))


# --- table plan --------------------------------------------------------------------------


def _plan_done(event: Event, table_count: int, *, reshuffled: bool) -> str:
    present = event.players.seatable().count()
    values = {"players": present, "tables": table_count}
    if reshuffled:
        return _("Dealt again: %(players)s players at %(tables)s tables.") % values
    return _("Table plan made: %(players)s players at %(tables)s tables, variants drawn.") % values


@require_POST
@login_required
def plan_tables(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    # seat_players refuses a count that does not fit the headcount, however large.
    table_count = positive_int(request.POST.get("table_count"))
    if table_count is None:
        messages.error(request, _("Choose a number of tables."))
        return redirect(console_url(event, "plan"))

    def plan() -> str:
        seat_players(event=event, table_count=table_count)
        return _plan_done(event, table_count, reshuffled=False)

    return run_action(request, plan, default=console_url(event, "plan"))


@require_POST
@login_required
def plan_reshuffle(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    table_count = event.tables.count()
    if not table_count:
        messages.error(request, _("Make the table plan first."))
        return redirect(console_url(event, "plan"))

    def reshuffle() -> str:
        seat_players(event=event, table_count=table_count, reshuffle=True)
        return _plan_done(event, table_count, reshuffled=True)

    return run_action(request, reshuffle, default=console_url(event, "plan"))


@get_goes_to(lambda pk: console_url(pk, "plan"))
@login_required
def plan_move(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    console = build_console(event)
    form = MovePlayerForm(
        request.POST, players=console.seated_choices, tables=[t.number for t in console.tables]
    )
    if form.is_valid():
        player = _player(event, form.cleaned_data["player"])
        table = get_object_or_404(Table, event=event, number=form.cleaned_data["table"])
        try:
            move_player(player=player, table=table)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(
                request,
                _("%(name)s moved to table %(table)s.")
                % {"name": player.name, "table": table.number},
            )
            return redirect(console_url(event, "plan"))
    return refused_form(
        request,
        "organizer/event.html",
        console_context(request, event, console, move_form=form),
        page_url=console_url(event, "plan"),
    )


# --- variants ----------------------------------------------------------------------------


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirmed") in ("1", "on", "true")


@require_POST
@login_required
def variants_redraw(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)

    def redraw() -> str:
        redraw_variants(event=event, confirmed=_confirmed(request))
        return _("Every table has a new variant.")

    return run_action(request, redraw, default=console_url(event, "variants"))


@require_POST
@login_required
def variants_classic(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)

    def use_classic() -> str:
        use_classic_variants(event=event, confirmed=_confirmed(request))
        return _("The tables now play the classic set: the source tournament's rule sheets.")

    return run_action(request, use_classic, default=console_url(event, "variants"))


@require_POST
@login_required
def table_variant(request: HttpRequest, pk: int) -> HttpResponse:
    """Redraw one table's variant, or set it by hand (variant "draw" means redraw)."""
    event = owned_event(request, pk)
    number = positive_int(request.POST.get("table"))
    table = Table.objects.filter(event=event, number=number).first() if number else None
    choice = request.POST.get("variant", "draw")
    form = SetVariantForm(request.POST)

    def change() -> str:
        if table is None:
            raise Refused(_("Choose a table."))
        table.event = event
        changed = table
        if choice == "draw":
            # The redraw saves a fresh copy of the table: `table` still has the old variant.
            changed = redraw_table_variant(table=table, confirmed=_confirmed(request))
        elif not form.is_valid():
            raise Refused(_("Choose a variant from the list."))
        else:
            warnings = set_table_variant(
                table=table, variant=form.cleaned_data["variant"], confirmed=_confirmed(request)
            )
            for warning in warnings:
                messages.warning(request, warning)
        return _("Table %(number)s now plays: %(variant)s.") % {
            "number": changed.number,
            "variant": variant_label(changed.variant, _),
        }

    return run_action(request, change, default=console_url(event, "variants"))


@require_POST
@login_required
def table_rotate_link(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk)
    table = get_object_or_404(Table, event=event, number=number)

    def rotate() -> str:
        rotate_table_link(table=table)
        return _(
            "Table %(number)s has a new phone link. The old one no longer works: print the "
            "table's new QR code from the kit."
        ) % {"number": table.number}

    return run_action(request, rotate, default=console_url(event, "tables"))


@require_POST
@login_required
def table_sheet_language(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Print one table's rule sheet in another language than the event's (or back)."""
    event = owned_event(request, pk)
    table = get_object_or_404(Table, event=event, number=number)
    language = request.POST.get("language", "")

    def change() -> str:
        set_sheet_language(table=table, language=language)
        table.event = event
        return _(
            "Table %(number)s's rule sheet is now printed in %(language)s. Reprint the table "
            "from the kit."
        ) % {
            "number": table.number,
            "language": dict(settings.LANGUAGES)[table.rule_sheet_language],
        }

    return run_action(request, change, default=_table_url(event, number))


# --- games -------------------------------------------------------------------------------


def _table_url(event: Event, number: int) -> str:
    return reverse("organizer:table", args=[event.pk, number])


def _posted_player(request: HttpRequest, event: Event) -> Player | None:
    """The player the form names as a game's winner, or None if it names nobody here."""
    player_id = positive_int(request.POST.get("winner"))
    return Player.objects.filter(event=event, pk=player_id).first() if player_id else None


@require_POST
@login_required
def game_add(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = owned_event(request, pk, may="assist")
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

    return run_action(request, add, default=_table_url(event, number))


def _game(event: Event, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("round", "table", "winner"), table__event=event, pk=game_id
    )


@require_POST
@login_required
def game_settle(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    event = owned_event(request, pk, may="assist")
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

    return run_action(request, settle, default=_table_url(event, game.table.number))


@require_POST
@login_required
def game_delete(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    game = _game(event, game_id)
    values = {"game": game.number, "table": game.table.number}

    def delete() -> str:
        delete_game(game=game, by=request.user)
        return _("Game %(game)s at table %(table)s was deleted.") % values

    return run_action(request, delete, default=_table_url(event, game.table.number))


def _late_report(event: Event, report_id: int) -> GameReport:
    return get_object_or_404(
        GameReport.objects.select_related("round", "table", "winner"),
        table__event=event,
        pk=report_id,
    )


@require_POST
@login_required
def report_accept(request: HttpRequest, pk: int, report_id: int) -> HttpResponse:
    event = owned_event(request, pk)
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
@login_required
def report_drop(request: HttpRequest, pk: int, report_id: int) -> HttpResponse:
    event = owned_event(request, pk)
    report = _late_report(event, report_id)

    def drop() -> str:
        drop_late_report(report=report, by=request.user)
        return _("The report from table %(table)s was dropped.") % {"table": report.table.number}

    return run_action(request, drop, default=console_url(event, "late"))


# --- phases and the clock ----------------------------------------------------------------


def _phase_started(event: Event) -> str:
    if event.phase == Phase.STUDY:
        return ngettext(
            "Study started: %(minutes)s minute to read the rules.",
            "Study started: %(minutes)s minutes to read the rules.",
            event.study_minutes,
        ) % {"minutes": event.study_minutes}
    if event.phase == Phase.PRACTICE:
        return _("Practice started: take the rule sheets away. Silence from now on.")
    if event.phase == Phase.ROUND:
        return ngettext(
            "Round %(number)s started: %(minutes)s minute.",
            "Round %(number)s started: %(minutes)s minutes.",
            event.round_minutes,
        ) % {"number": event.round_number, "minutes": event.round_minutes}
    return _("The debrief has started.")


@require_POST
@login_required
def phase_next(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    expected = request.POST.get("phase") or None
    if (
        event.phase == Phase.BETWEEN_ROUNDS
        and event.planned_round() is None
        and not _confirmed(request)
    ):
        # The next phase is the debrief, which makes the results final: ask first.
        return redirect("organizer:debrief", event.pk)
    return run_action(
        request,
        lambda: _phase_started(advance_phase(event=event, expected_phase=expected)),
        default=console_url(event),
    )


CLOCK_DONE = {
    ClockAction.PAUSE: gettext_lazy("Clock paused."),
    ClockAction.RESUME: gettext_lazy("Clock running again."),
    ClockAction.ADD_MINUTE: gettext_lazy("One more minute."),
    ClockAction.TIME_UP: gettext_lazy(
        "Time is up. Late games can still be reported until you close the round."
    ),
}


@require_POST
@login_required
def clock(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    event = owned_event(request, pk)
    if action not in CLOCK_DONE:
        messages.error(request, _("Unknown clock action."))
        return redirect(console_url(event))
    expected = request.POST.get("phase") or None

    def act() -> str:
        change_clock(event=event, action=ClockAction(action), expected_phase=expected)
        return str(CLOCK_DONE[action])

    return run_action(request, act, default=console_url(event))


def _waiting_counts(event: Event) -> dict[str, int]:
    """How many reports of each kind the organizer has still to accept or drop."""
    counts = dict(
        GameReport.objects.filter(table__event=event, state__in=KEPT_FOR_THE_ORGANIZER)
        .values("state")
        .annotate(count=Count("pk"))
        .values_list("state", "count")
    )
    return {
        "late_count": counts.get(ReportState.LATE, 0),
        "held_count": counts.get(ReportState.HELD, 0),
    }


@require_http_methods(["GET", "POST"])
@login_required
def debrief(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the debrief, once confirmed: after it no close can be undone.

    The console's button asks in the browser and posts `confirmed`; without JavaScript
    the post arrives unconfirmed and this page (GET) asks instead.
    """
    event = owned_event(request, pk)
    if request.method == "POST" and _confirmed(request):

        def begin() -> str:
            start_debrief(event=event)
            return _("The debrief has started. The results are final.")

        return run_action(request, begin, default=console_url(event))
    if request.method == "POST":
        return redirect("organizer:debrief", event.pk)
    if event.phase == Phase.DEBRIEF:
        messages.info(request, _("The debrief has already started."))
        return redirect(console_url(event))
    planned = event.planned_round()
    return render(
        request,
        "organizer/debrief.html",
        {
            "event": event,
            "last_closed": event.rounds.filter(status=RoundStatus.CLOSED)
            .order_by("-number")
            .first(),
            "unplayed_from": planned.number if planned else None,
            "site_messages": list(get_messages(request)),
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    """Finish the event once confirmed: it becomes read-only (tournament.writes.finishing).

    As for the debrief: the console's button asks in the browser and posts `confirmed`;
    without JavaScript this page (GET) asks instead.
    """
    event = owned_event(request, pk)
    if request.method == "POST" and _confirmed(request):

        def done() -> str:
            finish_event(event=event)
            return _(
                "The event is finished and read-only. Its debrief screens, report and "
                "downloads stay here."
            )

        return run_action(request, done, default=console_url(event))
    if request.method == "POST":
        return redirect("organizer:finish", event.pk)
    if event.is_finished:
        messages.info(request, _("The event is already finished."))
        return redirect(console_url(event))
    if event.phase != Phase.DEBRIEF:
        messages.error(
            request, _("An event is finished after its debrief: start the debrief first.")
        )
        return redirect(console_url(event))
    return render(
        request,
        "organizer/finish.html",
        {
            "event": event,
            "reopen": False,
            # Late and held reports wait alike, but each is told in its own words.
            **_waiting_counts(event),
            "site_messages": list(get_messages(request)),
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen a finished event once confirmed: it can change again."""
    event = owned_event(request, pk, even_when_finished=True)
    if request.method == "POST" and _confirmed(request):

        def done() -> str:
            reopen_event(event=event)
            return _("The event is open again: results, roster and settings can change.")

        return run_action(request, done, default=console_url(event))
    if request.method == "POST":
        return redirect("organizer:reopen", event.pk)
    if not event.is_finished:
        messages.info(request, _("The event is not finished: there is nothing to reopen."))
        return redirect(console_url(event))
    return render(
        request,
        "organizer/finish.html",
        {"event": event, "reopen": True, "site_messages": list(get_messages(request))},
    )


@require_POST
@login_required
def reveal(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk, even_when_finished=True)
    shown = request.POST.get("revealed", "1") == "1"

    def show_or_hide() -> str:
        reveal_rules(event=event, revealed=shown)
        if shown:
            return _("The projector now shows every table's rules.")
        return _("The rules are hidden from the projector again.")

    return run_action(request, show_or_hide, default=console_url(event))


@require_POST
@login_required
def debrief_step(request: HttpRequest, pk: int) -> HttpResponse:
    """Show another debrief slide on the projector: the console's Next, Back and jump list.

    `goto` names the slide (tournament.reads.debrief.Slide.key: "step:2", "question:17");
    a bare `step` (a screen's number) is read as before.
    """
    event = owned_event(request, pk, even_when_finished=True)
    goto = request.POST.get("goto")
    if goto is None:
        goto = f"step:{request.POST.get('step', '')}"
    # A step outside the list (or none) is refused by the bridge with its reason.
    to_step, question_id = parse_slide_key(goto)

    def show() -> str:
        if question_id is not None:
            question = show_question(event=event, question_id=question_id)
            shown = next(s for s in debrief_slides(event) if s.question_id == question.pk)
            return _("The projector shows question %(number)s of %(total)s.") % {
                "number": shown.number,
                "total": shown.total,
            }
        shown = step_debrief(event=event, to_step=-1 if to_step is None else to_step)
        return _("The projector shows: %(screen)s.") % {
            "screen": DebriefStep(shown.debrief_step).label
        }

    return run_action(request, show, default=console_url(event, "phase"))


@require_POST
@login_required
def debrief_highlight(request: HttpRequest, pk: int) -> HttpResponse:
    """Which paths the debrief's paths chart draws bold, on the projector."""
    event = owned_event(request, pk, even_when_finished=True)
    chosen = request.POST.get("highlight", "")

    def change() -> str:
        changed = set_paths_highlight(event=event, highlight=chosen)
        return _("Paths chart: %(choice)s.") % {
            "choice": PathsHighlight(changed.paths_highlight).label
        }

    return run_action(request, change, default=console_url(event, "phase"))


@require_POST
@login_required
def reveal_one_table(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk, even_when_finished=True)
    number = positive_int(request.POST.get("table"))

    def show() -> str:
        if number is None:
            raise Refused(_("Choose a table to reveal."))
        reveal_table(event=event, table_number=number)
        return _("The projector now shows table %(number)s's rules.") % {"number": number}

    return run_action(request, show, default=console_url(event))


# --- closing a round ---------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def close_round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """GET: the results and moves to check. POST: confirm them (refused if they changed)."""
    event = owned_event(request, pk)
    round_ = get_object_or_404(Round, event=event, number=number)
    if request.method == "POST":
        form = CloseRoundForm(request.POST)
        try:
            if not form.is_valid():
                raise Refused(_("Check the moves again, then confirm."))
            close_round(
                round_=round_,
                by=request.user,
                expected_version=form.cleaned_data["version"],
                disputed_count_for_nobody=form.cleaned_data["disputed_ok"],
            )
        except Refused as refused:
            messages.error(request, refused.message)
            round_.refresh_from_db()
        else:
            messages.success(request, _closed_message(event, number))
            return redirect(console_url(event, "tables"))
    if round_.status != RoundStatus.OPEN:
        messages.info(request, _("Round %(number)s is not open.") % {"number": number})
        return redirect(console_url(event))
    return render(request, "organizer/close_round.html", close_context(request, event, round_))


def _closed_message(event: Event, number: int) -> str:
    if number < event.rounds_planned:
        return _(
            "Round %(number)s closed. Round %(next)s's seating is committed: the projector "
            "shows the moves."
        ) % {"number": number, "next": number + 1}
    return _(
        "Round %(number)s closed: that was the last round. Start the debrief when you are ready."
    ) % {"number": number}


@require_POST
@login_required
def undo_close(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    posted = request.POST.get("round")
    expected = positive_int(posted) if posted else None
    if posted and expected is None:
        messages.error(request, _("Choose the round whose close to undo."))
        return redirect(console_url(event, "round-panel"))

    def undo() -> str:
        reopened = undo_close_round(event=event, expected_round=expected)
        return _(
            "Round %(number)s is open again, with its time up. Correct its results, then "
            "close it again."
        ) % {"number": reopened.number}

    return run_action(request, undo, default=console_url(event))
