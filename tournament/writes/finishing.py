"""Finishing an event after its debrief, reopening it, and archiving it.

Terms:
    finished   the organizer closed the event after its debrief (Event.finished_at): it
               is read-only from then on. Every organizer change is refused before its
               view runs (tournament.views.access.event_view), and so is every phone
               report (tables.writes.reporting.report_game), with Event.finished_refusal's words.
               What stays: the debrief screens (stepping the projector through them and
               revealing the rules only change what the projector shows), the printable
               report, the downloads and backups, archiving and deleting.
    reopen     undo the finish: the event is back in its debrief, changeable again.
    archived   put away in the events list, under "Archived" (Event.archived_at); any
               event can be archived and brought back, and nothing else changes.

Each function refuses, changing nothing, when the event is not in the state it needs
(a second click, another tab), and bumps the versions so every screen follows.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import Event, Phase


@transaction.atomic
def finish_event(*, event: Event, now: datetime | None = None) -> Event:
    """Make the event read-only; only once its debrief has started."""
    event = Event.objects.get(pk=event.pk)
    if event.is_finished:
        raise Refused(_("The event is already finished."))
    if event.phase != Phase.DEBRIEF:
        raise Refused(_("An event is finished after its debrief: start the debrief first."))
    event.finished_at = now or timezone.now()
    event.save_and_bump(["finished_at"])
    return event


@transaction.atomic
def reopen_event(*, event: Event) -> Event:
    """Undo the finish: the event is in its debrief again, and can change."""
    event = Event.objects.get(pk=event.pk)
    if not event.is_finished:
        raise Refused(_("The event is not finished: there is nothing to reopen."))
    event.finished_at = None
    event.save_and_bump(["finished_at"])
    return event


@transaction.atomic
def archive_event(*, event: Event, archived: bool = True, now: datetime | None = None) -> Event:
    """Put the event under "Archived" in the events list, or bring it back."""
    event = Event.objects.get(pk=event.pk)
    if archived == event.is_archived:
        raise Refused(
            _("The event is already archived.") if archived else _("The event is not archived.")
        )
    event.archived_at = (now or timezone.now()) if archived else None
    event.save(update_fields=["archived_at"])
    return event
