"""The printable debrief report (tournament.reads.debrief_report), for the organizer only.

Terms:
    paper   A4 (the default) or US Letter, chosen with ?paper=letter as for the table kit
            (tables.views.kit.PAPERS); it names the CSS page the report prints on.

A GET that changes nothing, so a finished event (read-only) still has its report.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tables.views.kit import DEFAULT_PAPER, PAPERS
from tournament.reads.debrief_report import build_report
from tournament.views.organizer import owned_event


@require_GET
@login_required
def event_report(request: HttpRequest, pk: int) -> HttpResponse:
    event = owned_event(request, pk)
    paper = PAPERS.get(request.GET.get("paper", ""), PAPERS[DEFAULT_PAPER])
    return render(
        request,
        "organizer/report.html",
        {"event": event, "r": build_report(event), "paper": paper, "papers": PAPERS.values()},
    )
