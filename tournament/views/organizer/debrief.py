"""The debrief: starting it (once confirmed: the results become final), the screens the
projector shows (step, question, the paths chart's highlight, the tables' rules
revealed), the tricks' story with a trick replayed (an event whose cards are on screens),
and the printable report.

Terms:
    slide     one screen of the debrief's running order (tournament.reads.debrief.Slide):
              a data screen ("step:2") or a question ("question:17").
    paper     the report's page: A4 (the default) or US Letter, chosen with ?paper=letter
              as for the table kit (tournament.views.organizer.kit.PAPERS).

A finished event still steps its debrief screens and reveals the rules
(even_when_finished=True), and prints its report (a GET, which changes nothing). The
questions' editor is tournament.views.organizer.questions.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.requests import HtmxRequest
from tournament.models import DebriefStep, Event, PathsHighlight, Phase, RoundStatus
from tournament.reads.debrief import debrief_slides, parse_slide_key
from tournament.reads.debrief_replay import Choice, tricks_page
from tournament.reads.debrief_report import build_report
from tournament.views.access import event_view
from tournament.views.organizer.answers import confirmed, console_url, run_action
from tournament.views.organizer.kit import DEFAULT_PAPER, PAPERS
from tournament.writes.debrief_bank import set_paths_highlight, show_question
from tournament.writes.rounds import reveal_rules, reveal_table, start_debrief, step_debrief


@require_http_methods(["GET", "POST"])
@event_view()
def debrief(request: HttpRequest, event: Event) -> HttpResponse:
    """Start the debrief, once confirmed: after it no close can be undone.

    The console's button asks in the page (organizer/_confirm.html) and its "Yes" posts
    `confirmed`; a post without it (an older page, "next" after the last round) is sent
    to this page (GET), which asks instead.
    """
    if request.method == "POST" and confirmed(request):

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


@require_POST
@event_view(even_when_finished=True)
def debrief_step(request: HttpRequest, event: Event) -> HttpResponse:
    """Show another debrief slide on the projector: the console's Next, Back and jump list.

    `goto` names the slide (tournament.reads.debrief.Slide.key: "step:2", "question:17");
    a bare `step` (a screen's number) is read as before.
    """
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
        stepped = step_debrief(event=event, to_step=-1 if to_step is None else to_step)
        return _("The projector shows: %(screen)s.") % {
            "screen": DebriefStep(stepped.debrief_step).label
        }

    return run_action(request, show, default=console_url(event, "phase"))


@require_POST
@event_view(even_when_finished=True)
def debrief_highlight(request: HttpRequest, event: Event) -> HttpResponse:
    """Which paths the debrief's paths chart draws bold, on the projector."""
    chosen = request.POST.get("highlight", "")

    def change() -> str:
        changed = set_paths_highlight(event=event, highlight=chosen)
        return _("Paths chart: %(choice)s.") % {
            "choice": PathsHighlight(changed.paths_highlight).label
        }

    return run_action(request, change, default=console_url(event, "phase"))


@require_POST
@event_view(even_when_finished=True)
def reveal(request: HttpRequest, event: Event) -> HttpResponse:
    shown = request.POST.get("revealed", "1") == "1"

    def show_or_hide() -> str:
        reveal_rules(event=event, revealed=shown)
        if shown:
            return _("The projector now shows every table's rules.")
        return _("The rules are hidden from the projector again.")

    return run_action(request, show_or_hide, default=console_url(event))


@require_POST
@event_view(even_when_finished=True)
def reveal_one_table(request: HttpRequest, event: Event) -> HttpResponse:
    number = positive_int(request.POST.get("table"))

    def show() -> str:
        if number is None:
            raise Refused(_("Choose a table to reveal."))
        reveal_table(event=event, table_number=number)
        return _("The projector now shows table %(number)s's rules.") % {"number": number}

    return run_action(request, show, default=console_url(event))


# --- the tricks' story and a trick replayed ---------------------------------------------


@require_GET
@event_view()
def debrief_tricks(request: HtmxRequest, event: Event) -> HttpResponse:
    """The tricks' story beside the clash map, and the trick the organizer chose replayed
    beside its table's pad (tournament.reads.debrief_replay). The choice is a plain GET
    form; htmx swaps its section alone (the ``choice`` partial)."""
    page = tricks_page(event, Choice.parse(request.GET))
    template = "organizer/debrief_tricks.html"
    return render(
        request, f"{template}#choice" if request.htmx else template, {"event": event, "p": page}
    )


# --- the printable report ----------------------------------------------------------------


@require_GET
@event_view()
def event_report(request: HttpRequest, event: Event) -> HttpResponse:
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    return render(
        request,
        "organizer/report.html",
        {"event": event, "r": build_report(event), "paper": paper, "papers": PAPERS.values()},
    )
