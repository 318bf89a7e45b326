"""Observers' notes: the phone page to write them, editing one's own, and the organizer's
choice of which notes the projector shows at the debrief (see tournament.writes.notes)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tables.models import Table
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.models import NOTE_TEXT_MAX_LENGTH, Event, NoteTag, ObserverNote, Phase
from tournament.views.access import EventRequest, event_view
from tournament.views.organizer.answers import get_goes_to, run_action
from tournament.writes.notes import add_note, choose_note, delete_note, edit_note

MY_NOTES_SHOWN = 20


def notes_url(event: Event | int, table: int | None = None) -> str:
    url = reverse("organizer:notes", args=[getattr(event, "pk", event)])
    return f"{url}?table={table}" if table else url


def author_name(request: EventRequest) -> str:
    access = request.event_access
    if access.cofacilitator is not None:
        return f"{access.cofacilitator.name} ({access.role_label})"
    return request.user.get_username()


@require_GET
@event_view(may="observe")
def notes_page(request: EventRequest, event: Event) -> HttpResponse:
    """The phone page: pick a table, tap what you see, optionally add a few words."""
    numbers = list(Table.objects.filter(event=event).values_list("number", flat=True))
    table = positive_int(request.GET.get("table") or "")
    if table not in numbers:
        table = None
    mine = list(
        ObserverNote.objects.filter(event=event, author=request.user).order_by(
            "-created_at", "-pk"
        )[:MY_NOTES_SHOWN]
    )
    return render(
        request,
        "organizer/notes.html",
        {
            "event": event,
            "numbers": numbers,
            "table": table,
            "tags": NoteTag.choices,
            "mine": mine,
            "open": not event.is_finished and event.phase != Phase.DEBRIEF,
            "text_max": NOTE_TEXT_MAX_LENGTH,
        },
    )


@get_goes_to(lambda pk: notes_url(pk))
@event_view(may="observe")
def note_add(request: EventRequest, event: Event) -> HttpResponse:
    table = positive_int(request.POST.get("table") or "")

    def add() -> str:
        if table is None:
            raise Refused(_("Pick a table first."))
        note = add_note(
            event=event,
            author=request.user,
            author_name=author_name(request),
            table_number=table,
            tag=request.POST.get("tag", ""),
            text=request.POST.get("text", ""),
        )
        return _("Noted at table %(table)s: %(tag)s.") % {
            "table": note.table_number,
            "tag": note.get_tag_display(),
        }

    return run_action(request, add, default=notes_url(event, table))


def _note(event: Event, note_id: int) -> ObserverNote:
    return get_object_or_404(ObserverNote, event=event, pk=note_id)


@require_http_methods(["GET", "POST"])
@event_view(may="observe")
def note_edit(request: EventRequest, event: Event, note_id: int) -> HttpResponse:
    note = _note(event, note_id)
    if note.author_id != request.user.pk:
        return redirect(notes_url(event))
    if request.method == "POST":

        def edit() -> str:
            edit_note(
                note=note,
                author=request.user,
                tag=request.POST.get("tag", ""),
                text=request.POST.get("text", ""),
            )
            return _("Note changed.")

        return run_action(request, edit, default=notes_url(event, note.table_number))
    return render(
        request,
        "organizer/note_edit.html",
        {"event": event, "note": note, "tags": NoteTag.choices, "text_max": NOTE_TEXT_MAX_LENGTH},
    )


@get_goes_to(lambda pk, note_id: notes_url(pk))
@event_view(may="observe")
def note_delete(request: EventRequest, event: Event, note_id: int) -> HttpResponse:
    note = _note(event, note_id)

    def delete() -> str:
        delete_note(note=note, author=request.user)
        return _("Note deleted.")

    return run_action(request, delete, default=notes_url(event, note.table_number))


@get_goes_to(lambda pk, note_id: reverse("organizer:event", args=[pk]))
@event_view(even_when_finished=True)
def note_choose(request: EventRequest, event: Event, note_id: int) -> HttpResponse:
    """Show a note on the projector at the debrief (shown=1), or take it back (0)."""
    note = _note(event, note_id)
    shown = request.POST.get("shown") == "1"

    def choose() -> str:
        choose_note(note=note, shown=shown)
        if shown:
            return _("The note is chosen for the projector's debrief.")
        return _("The note will not show on the projector.")

    return run_action(request, choose, default=reverse("organizer:event", args=[event.pk]))
