"""The console's records of an event: downloads of the event (JSON), its results (CSV),
at a screen event its tricks (CSV) and the tricks' story (SVG), and "Back up now".

Terms:
    download   a GET answered with a file to save (Content-Disposition: attachment),
               named after the event in ASCII letters so every browser and file system
               keeps the name. Only the event's organizer gets one (another organizer's
               answer 404, as for every console page); a finished event downloads too.
    records panel
               what the console's Records section shows beside the links: when the
               event's last backup was taken and where backups go. On SQLite it is read
               from the backup folder's file names, so it costs no query; on PostgreSQL,
               where backups are kept in the database, one query.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament.common.inputs import positive_int
from tournament.models import Event
from tournament.reads.debrief_tricks import tricks_story
from tournament.reads.records import answers_csv, export_event, notes_csv, results_csv, tricks_csv
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, get_goes_to, run_action
from tournament.writes.backups import (
    Backup,
    Moment,
    back_up,
    backup_dir,
    backups_in_database,
    last_backup,
)

DOWNLOAD_NAME_LENGTH = 60


def download_name(event: Event, what: str, extension: str) -> str:
    """e.g. ``fivetricks-12-friday-workshop-results.csv``; ASCII only, never a path."""
    slug = slugify(event.name)[:DOWNLOAD_NAME_LENGTH].strip("-")
    return "-".join(part for part in ("fivetricks", str(event.pk), slug, what) if part) + (
        f".{extension}"
    )


def _download(content: str, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content.encode("utf-8"), content_type=content_type)
    # An attachment always has the header; None is only for an inline answer without a name.
    disposition = content_disposition_header(True, filename)
    if disposition is not None:
        response["Content-Disposition"] = disposition
    return response


@require_GET
@event_view(may="organize")
@never_cache
def event_json(request: HttpRequest, event: Event) -> HttpResponse:
    return _download(
        json.dumps(export_event(event), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
        filename=download_name(event, "event", "json"),
    )


@require_GET
@event_view(may="organize")
@never_cache
def event_results_csv(request: HttpRequest, event: Event) -> HttpResponse:
    return _download(
        results_csv(export_event(event)),
        content_type="text/csv; charset=utf-8",
        filename=download_name(event, "results", "csv"),
    )


@require_GET
@event_view(may="organize")
@never_cache
def event_tricks_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """Every trick taken at the screen tables (tournament.reads.record_screens)."""
    return _download(
        tricks_csv(export_event(event)),
        content_type="text/csv; charset=utf-8",
        filename=download_name(event, "tricks", "csv"),
    )


@require_GET
@event_view(may="organize")
@never_cache
def event_tricks_svg(request: HttpRequest, event: Event) -> HttpResponse:
    """The tricks' story as a picture for slides or print (tournament.reads.debrief_tricks):
    every round side by side, or ?round=2 alone; its key drawn under it."""
    story = tricks_story(event)
    number = positive_int(request.GET.get("round"))
    chosen = number if number in story.rounds else None
    what = f"tricks-round-{chosen}" if chosen else "tricks"
    return _download(
        story.svg_file(chosen),
        content_type="image/svg+xml; charset=utf-8",
        filename=download_name(event, what, "svg"),
    )


@require_GET
@event_view(may="organize")
@never_cache
def event_notes_csv(request: HttpRequest, event: Event) -> HttpResponse:
    return _download(
        notes_csv(export_event(event)),
        content_type="text/csv; charset=utf-8",
        filename=download_name(event, "notes", "csv"),
    )


@require_GET
@event_view(may="organize")
@never_cache
def event_answers_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """The room's anonymous answers to the debrief's questions (question, kind, answer)."""
    return _download(
        answers_csv(export_event(event)),
        content_type="text/csv; charset=utf-8",
        filename=download_name(event, "answers", "csv"),
    )


@get_goes_to(lambda pk: console_url(pk, "records"))
@event_view(even_when_finished=True)
def back_up_now(request: HttpRequest, event: Event) -> HttpResponse:
    def take() -> str:
        backup = back_up(
            event_id=event.pk, round_number=event.round_number, moment=Moment.ON_DEMAND
        )
        return _("Backup taken: %(file)s") % {"file": backup.name}

    return run_action(request, take, default=console_url(event, "records"))


def records_panel(event: Event) -> dict[str, Backup | Path | bool | None]:
    """What the console's Records section shows (see Terms: records panel)."""
    in_database = backups_in_database()
    return {
        "last_backup": last_backup(event.pk),
        "backup_dir": None if in_database else backup_dir(),
        "backups_in_database": in_database,
    }
