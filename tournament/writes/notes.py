"""Observers' notes: written from a phone while walking between tables, read at the debrief.

Terms:
    note       what a facilitator saw at one table (ObserverNote): a tag, an optional short
               text, stamped with the table, the round (the event's round number when it
               was written: 0 before round 1) and the time.
    author     who wrote it; only they edit or delete it, and only until the debrief
               starts (the debrief talks about what was written).
    chosen     the organizer picked the note for the projector; an unchosen note is never
               shown there, and no note is shown on the phones.
    text       a note's text holds no control character (tournament.rules.roster: Terms:
               control): it is refused, as a player's name is, not silently changed.

A note changes what the console shows, not what the phones or the projector show during
play: it bumps the event's version (the console and projector polls) but not the shared
version the phones follow.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import NOTE_TEXT_MAX_LENGTH, Event, NoteTag, ObserverNote, Phase
from tournament.rules.roster import code_point, control_characters


def _bump(event_id: int) -> None:
    Event.objects.filter(pk=event_id).update(version=F("version") + 1)


def _refuse_unless_open(event: Event) -> None:
    if event.is_finished or event.phase == Phase.DEBRIEF:
        raise Refused(_("The debrief has started: notes can no longer be written or changed."))


def _clean(tag: str, text: str) -> tuple[str, str]:
    if tag not in NoteTag.values:
        raise Refused(_("Tap one of the tags: what did you see?"))
    text = " ".join((text or "").split())
    if len(text) > NOTE_TEXT_MAX_LENGTH:
        raise Refused(
            _("Keep the note under %(count)s characters; it was not saved.")
            % {"count": NOTE_TEXT_MAX_LENGTH}
        )
    if controls := control_characters(text):
        raise Refused(
            _(
                "That note holds a control character (%(character)s), which cannot be part "
                "of a note. Retype the note; it was not saved."
            )
            % {"character": code_point(controls[0])}
        )
    return tag, text


def add_note(
    *, event: Event, author, author_name: str, table_number: int, tag: str, text: str = ""
) -> ObserverNote:
    tag, text = _clean(tag, text)
    with transaction.atomic():
        event = Event.objects.lock(event.pk)
        _refuse_unless_open(event)
        if not event.tables.filter(number=table_number).exists():
            raise Refused(_("There is no table %(number)s.") % {"number": table_number})
        note = ObserverNote.objects.create(
            event=event,
            table_number=table_number,
            round_number=event.round_number,
            tag=tag,
            text=text,
            author=author,
            author_name=author_name,
        )
        _bump(event.pk)
    return note


def _own_note(note: ObserverNote, author) -> ObserverNote:
    event = Event.objects.lock(note.event_id)
    _refuse_unless_open(event)
    note = ObserverNote.objects.get(pk=note.pk)
    if note.author_id != author.pk:
        raise Refused(_("Only the person who wrote a note can change it."))
    return note


def edit_note(*, note: ObserverNote, author, tag: str, text: str) -> ObserverNote:
    tag, text = _clean(tag, text)
    with transaction.atomic():
        note = _own_note(note, author)
        note.tag, note.text = tag, text
        note.save(update_fields=["tag", "text", "updated_at"])
        _bump(note.event_id)
    return note


def delete_note(*, note: ObserverNote, author) -> None:
    with transaction.atomic():
        note = _own_note(note, author)
        note.delete()
        _bump(note.event_id)


def choose_note(*, note: ObserverNote, shown: bool) -> ObserverNote:
    """The organizer shows a note on the projector at the debrief, or takes it back."""
    with transaction.atomic():
        Event.objects.lock(note.event_id)
        ObserverNote.objects.filter(pk=note.pk).update(on_projector=shown)
        _bump(note.event_id)
        note.refresh_from_db()
    return note
