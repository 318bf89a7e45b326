"""A paper-only event never talks about phones: its console, its table pages, its close
page and its kit speak of games entered once and of tally sheets, not of phone links."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Table
from tests import factories

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def paper_event(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=NAMES, tables=2, paper_only=True)
    )
    factories.report(event, 1, factories.seated_players(event, 1)[0])  # entered once
    return event


def test_the_console_and_a_table_page_never_mention_phones(signed_in, paper_event):
    console = signed_in.get(reverse("organizer:event", args=[paper_event.pk])).content.decode()
    assert "reported by one phone only" not in console
    assert "1 reported once" in console
    assert "Phone link" not in console
    assert "New link" not in console
    table = signed_in.get(reverse("organizer:table", args=[paper_event.pk, 1])).content.decode()
    assert "phone page" not in table
    assert "New phone link" not in table


def test_the_close_page_says_entered_once(signed_in, paper_event):
    page = signed_in.get(reverse("organizer:close_round", args=[paper_event.pk, 1]))
    page = page.content.decode()
    assert "1 game was entered once; it counts as reported." in page
    assert "phone" not in page.lower()


def test_the_kit_does_not_say_phones_hide_the_rules(signed_in, paper_event):
    kit = signed_in.get(reverse("kit:event_kit", args=[paper_event.pk])).content.decode()
    assert "collect the sheets when it ends." in kit
    assert "Their phones hide the rules" not in kit


def test_an_event_with_phones_still_names_them(signed_in, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=NAMES, tables=2))
    factories.report(event, 1, factories.seated_players(event, 1)[0])
    console = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert "1 reported by one phone only" in console
    assert "Phone link" in console
    kit = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    assert "Their phones hide the rules at the same moment." in kit


def printed_then_changed(event) -> None:
    """Every table's kit printed, then (as far as the console knows) changed since."""
    Table.objects.filter(event=event).update(printed_at=timezone.now(), printed_signature="old")


def test_a_reprint_warning_speaks_of_the_variant_not_of_a_phone_link(signed_in, paper_event):
    printed_then_changed(paper_event)
    console = signed_in.get(reverse("organizer:event", args=[paper_event.pk])).content.decode()
    warning = console[console.index("reprint-warning") :]
    warning = warning[: warning.index("</div>")]
    assert "Reprint tables 1, 2: their variants changed after their kit was printed" in warning
    assert "phone" not in warning
    kit_url = reverse("kit:event_kit", args=[paper_event.pk])
    reprint = signed_in.get(kit_url + "?reprint=1").content.decode()
    assert "Only tables 1, 2: their variants changed after they were printed." in reprint
    Table.objects.filter(event=paper_event).update(printed_at=None)
    nothing = signed_in.get(kit_url + "?reprint=1").content.decode()
    assert "Nothing to reprint: every table's paper still matches its variant." in nothing
    assert "phone" not in nothing.lower()
    assert reprint.lower().count("phone") == 1  # "the tent cards carry no phone QR code"


def test_the_paper_only_kit_says_no_word_of_phones(signed_in, paper_event):
    kit = signed_in.get(reverse("kit:event_kit", args=[paper_event.pk])).content.decode()
    assert "winner on your table&#x27;s tally sheet" in kit
    assert "Four pages per table (2 tables)" in kit  # the tally sheet after the guide
    assert "A page went missing, or a table's variant changed?" in kit
    # Only the notice that says there are none.
    assert kit.lower().count("phone") == 1
    assert "the tent cards carry no phone QR code" in kit


def test_an_event_with_phones_is_still_told_about_phone_links(signed_in, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=NAMES, tables=2))
    printed_then_changed(event)
    console = signed_in.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert "their variants or phone links changed" in console
    kit = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    assert "the phones stop showing the rules" in kit
