"""Observers' notes: written from the phone page, stamped, changed only by their author
until the debrief, and never on the phones."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournament.common.errors import Refused
from tournament.models import CoRole, DebriefStep, Event, NoteTag, ObserverNote, Phase
from tournament.writes import cofacilitators
from tournament.writes.notes import add_note, choose_note, delete_note, edit_note
from tournament.writes.rounds import step_debrief

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))


def observer(event, name="Sam") -> tuple[Client, object]:
    invitation = cofacilitators.invite(event=event, name=name, role=CoRole.OBSERVER)
    browser = Client()
    browser.post(cofacilitators.link_path(invitation))
    invitation.refresh_from_db()
    return browser, invitation.user


def test_an_observer_notes_a_table_from_the_phone_page(playing):
    browser, user = observer(playing)
    page = browser.get(url("notes", playing.pk) + "?table=2").content.decode()
    assert 'value="gestures"' in page
    response = browser.post(
        url("note_add", playing.pk), {"table": "2", "tag": "gestures", "text": " drew  a trump "}
    )
    assert response.status_code == 302
    note = ObserverNote.objects.get()
    assert (note.table_number, note.round_number, note.tag, note.text) == (
        2,
        1,
        NoteTag.GESTURES,
        "drew a trump",
    )
    assert (note.author, note.author_name) == (user, "Sam (observer)")
    assert "drew a trump" in browser.get(response.url).content.decode()


def test_a_note_bumps_the_console_not_the_phones(playing, organizer):
    before = Event.objects.get(pk=playing.pk)
    add_note(event=playing, author=organizer, author_name="ada", table_number=1, tag="laughter")
    after = Event.objects.get(pk=playing.pk)
    assert after.version == before.version + 1
    assert after.shared_version == before.shared_version


@pytest.mark.parametrize(
    ("table", "tag", "text"), [(9, "laughter", ""), (1, "shouting", ""), (1, "laughter", "x" * 201)]
)
def test_a_bad_note_is_refused_and_nothing_is_saved(playing, organizer, table, tag, text):
    with pytest.raises(Refused):
        add_note(
            event=playing,
            author=organizer,
            author_name="ada",
            table_number=table,
            tag=tag,
            text=text,
        )
    assert not ObserverNote.objects.exists()


@pytest.mark.parametrize(
    ("char", "code"), [("\x00", "U+0000"), ("\x1b", "U+001B"), ("\x07", "U+0007")]
)
def test_a_note_with_a_control_character_is_refused_from_the_phone(playing, char, code):
    browser, _user = observer(playing)
    add = url("note_add", playing.pk)
    response = browser.post(
        add, {"table": "2", "tag": "gestures", "text": f"a{char}b"}, follow=True
    )
    page = html.unescape(response.content.decode())
    assert f"That note holds a control character ({code}), which cannot be part of a note." in page
    assert char not in page
    assert not ObserverNote.objects.exists()

    note = add_note(event=playing, author=_user, author_name="Sam", table_number=1, tag="laughter")
    with pytest.raises(Refused, match=re.escape(code)):
        edit_note(note=note, author=_user, tag="laughter", text=f"a{char}b")
    note.refresh_from_db()
    assert note.text == ""


def test_only_the_author_changes_a_note_and_only_until_the_debrief(playing, organizer):
    browser, user = observer(playing)
    note = add_note(event=playing, author=user, author_name="Sam", table_number=1, tag="confusion")
    with pytest.raises(Refused):
        edit_note(note=note, author=organizer, tag="laughter", text="")
    with pytest.raises(Refused):
        delete_note(note=note, author=organizer)
    browser.post(url("note_edit", playing.pk, note.pk), {"tag": "dispute", "text": "ace?"})
    note.refresh_from_db()
    assert (note.tag, note.text) == ("dispute", "ace?")
    Event.objects.filter(pk=playing.pk).update(phase=Phase.DEBRIEF)
    browser.post(url("note_delete", playing.pk, note.pk))
    assert ObserverNote.objects.filter(pk=note.pk).exists()
    with pytest.raises(Refused):
        add_note(event=playing, author=user, author_name="Sam", table_number=1, tag="laughter")


def test_the_author_deletes_their_note(playing):
    browser, user = observer(playing)
    note = add_note(event=playing, author=user, author_name="Sam", table_number=1, tag="confusion")
    browser.post(url("note_delete", playing.pk, note.pk))
    assert not ObserverNote.objects.exists()


def test_only_the_organizer_chooses_notes_for_the_projector(playing, signed_in):
    browser, user = observer(playing)
    note = add_note(event=playing, author=user, author_name="Sam", table_number=1, tag="laughter")
    browser.post(url("note_choose", playing.pk, note.pk), {"shown": "1"})
    note.refresh_from_db()
    assert not note.on_projector
    signed_in.post(url("note_choose", playing.pk, note.pk), {"shown": "1"})
    note.refresh_from_db()
    assert note.on_projector
    choose_note(note=note, shown=False)
    note.refresh_from_db()
    assert not note.on_projector


def test_notes_never_reach_the_phones(playing, organizer):
    add_note(
        event=playing,
        author=organizer,
        author_name="ada",
        table_number=1,
        tag="laughter",
        text="SECRET-NOTE",
    )
    table = factories.table(playing, 1)
    phone = Client().get(reverse("phone:table", args=[table.token])).content.decode()
    assert "SECRET-NOTE" not in phone
    screen = Client().get(reverse("projector:screen", args=[playing.projector_token]))
    assert "SECRET-NOTE" not in screen.content.decode()


# --- in the records ------------------------------------------------------------------------


def test_notes_travel_in_the_record_and_come_back_on_import(playing, organizer):
    from tournament.reads.records import export_event, notes_csv
    from tournament.writes.record_import import import_event

    note = add_note(
        event=playing,
        author=organizer,
        author_name="ada",
        table_number=2,
        tag="dispute",
        text="=SUM(A1)",
    )
    choose_note(note=note, shown=True)
    record = export_event(playing)
    assert record["notes"] == [
        {
            "table": 2,
            "round": 1,
            "tag": "dispute",
            "text": "=SUM(A1)",
            "by": "ada",
            "at": record["notes"][0]["at"],
            "on_projector": True,
        }
    ]
    sheet = notes_csv(record)
    assert "'=SUM(A1)" in sheet  # no formula for the spreadsheet
    copy = import_event(record=record, owner=organizer).event
    back = ObserverNote.objects.get(event=copy)
    assert (back.table_number, back.tag, back.text, back.on_projector, back.author) == (
        2,
        "dispute",
        "=SUM(A1)",
        True,
        None,
    )
    assert back.created_at == note.created_at


def test_a_record_without_notes_still_imports(playing, organizer):
    from tournament.reads.records import export_event
    from tournament.writes.record_import import import_event

    record = export_event(playing)
    del record["notes"]
    copy = import_event(record=record, owner=organizer).event
    assert not ObserverNote.objects.filter(event=copy).exists()


def test_a_record_with_a_bad_note_is_refused_whole(playing, organizer):
    from tournament.reads.records import export_event
    from tournament.writes.record_import import import_event

    record = export_event(playing)
    record["notes"] = [
        {
            "table": 99,
            "round": 1,
            "tag": "dispute",
            "text": "",
            "by": "",
            "at": None,
            "on_projector": False,
        }
    ]
    events = Event.objects.count()
    with pytest.raises(Refused):
        import_event(record=record, owner=organizer)
    assert Event.objects.count() == events


# --- in the console, the debrief screens and the report ----------------------------------------


def test_the_console_poll_brings_a_new_note(playing, signed_in, organizer):
    page = signed_in.get(url("event", playing.pk)).content.decode()
    assert 'id="notes"' in page
    live = re.search(r'hx-get="([^"]+)"', page.split('id="live-poll"')[1]).group(1)
    add_note(
        event=playing,
        author=organizer,
        author_name="Sam (observer)",
        table_number=3,
        tag="withdrawing",
        text="Lu stopped playing",
    )
    poll = signed_in.get(html.unescape(live)).content.decode()
    assert 'id="notes"' in poll
    assert "Lu stopped playing" in poll
    assert "Someone withdrawing" in poll


def test_the_debrief_shows_chosen_notes_only_on_the_projector(playing, signed_in, organizer):
    chosen = add_note(
        event=playing,
        author=organizer,
        author_name="ada",
        table_number=1,
        tag="gestures",
        text="CHOSEN-NOTE",
    )
    add_note(
        event=playing,
        author=organizer,
        author_name="ada",
        table_number=1,
        tag="laughter",
        text="PRIVATE-NOTE",
    )
    event = factories.play_until(playing, Phase.DEBRIEF, by=organizer)
    console = signed_in.get(url("event", event.pk)).content.decode()
    assert "Tables' timelines" in console or "Tables&#x27; timelines" in console
    assert "CHOSEN-NOTE" in console
    assert "PRIVATE-NOTE" in console
    signed_in.post(url("note_choose", event.pk, chosen.pk), {"shown": "1"})
    for step in (DebriefStep.DISPUTES, DebriefStep.CLASHES):
        step_debrief(event=Event.objects.get(pk=event.pk), to_step=step)
        screen = Client().get(reverse("projector:screen", args=[event.projector_token]))
        text = screen.content.decode()
        assert "What the observers saw" in text
        assert "CHOSEN-NOTE" in text
        assert "PRIVATE-NOTE" not in text
    report = signed_in.get(url("debrief_report", event.pk)).content.decode()
    assert "CHOSEN-NOTE" in report
    assert "PRIVATE-NOTE" in report


def test_no_note_chosen_no_notes_on_the_projector(playing, organizer):
    add_note(
        event=playing,
        author=organizer,
        author_name="ada",
        table_number=1,
        tag="gestures",
        text="PRIVATE-NOTE",
    )
    event = factories.play_until(playing, Phase.DEBRIEF, by=organizer)
    step_debrief(event=event, to_step=DebriefStep.DISPUTES)
    text = Client().get(reverse("projector:screen", args=[event.projector_token])).content.decode()
    assert "PRIVATE-NOTE" not in text
    assert "What the observers saw" not in text
