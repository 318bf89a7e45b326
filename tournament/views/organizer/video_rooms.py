"""Each screen table's video room, set by the organizer: one pattern for every table, and
a table's own link where it meets elsewhere. The product shows the link on the players'
screens and never embeds or relays the video.

Terms:
    pattern   an https address with ``{table}`` (and maybe ``{event}``) in it, filled in
              for each table (tables.rules.silent_channel).
    own link  a table's own address, which wins over the pattern.
    guessable a saved pattern without ``{event}``: its rooms' names hold no secret
              (tables.reads.silent_channel, Terms: room name), so anyone who tries
              "…-1" can walk into a table's call. The page says so; it is not refused,
              since a service with rooms of its own (a locked meeting) may not need one.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tables.forms import VideoRoomsForm
from tables.models import Table
from tables.reads.silent_channel import event_room_name, table_video_link
from tables.rules.silent_channel import EVENT_FIELD
from tables.writes.silent_channel import set_video_rooms
from tournament.models import Event
from tournament.views.access import EventRequest, event_view
from tournament.views.organizer.answers import form_error_status, run_action


def _page(request: EventRequest, event: Event, form: VideoRoomsForm, status: int = 200):
    tables = list(Table.objects.filter(event=event).order_by("number"))
    rows = [
        (field, table_video_link(event, table))
        for field, table in zip(form.table_fields(), tables, strict=True)
    ]
    context = {
        "event": event,
        "form": form,
        "rows": rows,
        "room_name": event_room_name(event),
        "guessable": bool(event.video_pattern) and EVENT_FIELD not in event.video_pattern,
    }
    return render(request, "organizer/video_rooms.html", context, status=status)


@require_GET
@event_view()
def video_rooms(request: EventRequest, event: Event) -> HttpResponse:
    tables = Table.objects.filter(event=event).order_by("number")
    form = VideoRoomsForm(initial={"pattern": event.video_pattern}, tables=tables)
    return _page(request, event, form)


@require_POST
@event_view(may="organize")
def video_rooms_save(request: EventRequest, event: Event) -> HttpResponse:
    tables = Table.objects.filter(event=event).order_by("number")
    form = VideoRoomsForm(request.POST, tables=tables)
    if not form.is_valid():
        return _page(request, event, form, status=form_error_status(request))

    def save() -> str:
        count = set_video_rooms(
            event=event, pattern=form.cleaned_data["pattern"], links=form.links()
        )
        if not count:
            return _("No table has a video room: the players' screens show no video link.")
        return ngettext(
            "Saved. The players' screens show their table's video link (%(count)s table).",
            "Saved. The players' screens show their table's video link (%(count)s tables).",
            count,
        ) % {"count": count}

    return run_action(request, save, default=reverse("organizer:video_rooms", args=[event.pk]))
