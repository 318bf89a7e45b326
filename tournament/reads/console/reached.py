"""How many phones reached each table in the last minute: the console's check, before play,
that the room can connect. At an event whose cards are on screens, which players' screens
did, by name.

Terms:
    reached    a phone whose sighting at a table (tables.models.PhoneSighting, written in
               batches by tables.writes.sightings) is at most REACHED_WINDOW old. At a
               screen event there are no table phones: a player is *here* when a screen
               of theirs was sighted (tables.models.ScreenSighting: its page, its polls,
               its live channel) within REACHED_WINDOW, whichever device it is on.
    before play the phases in which the console shows the counts (setup, study, practice):
               once rounds are played, reports tell the same story.
    refresh    before play the console's poll counts again every REACHED_REFRESH_SECONDS
               (its ETag follows the clock: tournament.views.organizer.console), as no
               write to the event says that a phone came.
    settle     a phone that opens its table's page is on the console within
               REACHED_SETTLE_SECONDS, which the console says: its server process writes
               the sighting at most FLUSH_SECONDS (15) later, plus one poll, then the
               console's next refresh and its next poll. Until then the count is low.
               A screen is sighted as it opens (no batch): it is on the console at the
               console's next refresh.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from tables.models import PhoneSighting, ScreenSighting
from tournament.models import Event, Phase

REACHED_WINDOW = timedelta(seconds=60)
REACHED_REFRESH_SECONDS = 2
REACHED_SETTLE_SECONDS = 20
BEFORE_PLAY = (Phase.SETUP, Phase.STUDY, Phase.PRACTICE)


def shows_phones_reached(event: Event) -> bool:
    return event.phase in BEFORE_PLAY and not event.paper_only


def phones_reached(event: Event) -> dict[int, int]:
    """Phones reached per table id (see Terms), in one query; tables none reached are left
    out. Empty (no query) outside the phases that show it."""
    if not shows_phones_reached(event):
        return {}
    since = timezone.now() - REACHED_WINDOW
    return dict(
        PhoneSighting.objects.filter(table__event=event, last_seen__gte=since)
        .values_list("table_id")
        .annotate(phones=Count("pk"))
        .values_list("table_id", "phones")
    )


def screens_reached(event: Event) -> set[int]:
    """The players of a screen event who are here (see Terms: reached), in one query; empty
    (no query) outside the phases that show it."""
    if not shows_phones_reached(event):
        return set()
    since = timezone.now() - REACHED_WINDOW
    return set(
        ScreenSighting.objects.filter(player__event=event, last_seen__gte=since).values_list(
            "player_id", flat=True
        )
    )
