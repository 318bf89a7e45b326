"""Which language each screen speaks (tournament.common.languages).

The room's screens follow the event's language; a table's phones and printed pages follow
its sheet language; a phone's own pick wins on that phone and lasts; the console follows
its browser or its switcher; names sort the same in every language.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests import factories
from tournament.common.languages import PHONE_LANGUAGE_COOKIE
from tournament.models import Event
from tournament.rules.ordering import name_key

pytestmark = pytest.mark.django_db

NAMES = ["émile", "Zoë", "Ana", "Øyvind", "ezra", "İlker", "Ábel", "zack"]


@pytest.fixture
def room(organizer) -> Event:
    return factories.seated_event(owner=organizer, players=NAMES, tables=2, language="fr")


def _lang(response) -> str:
    html = response.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def _table(event: Event, number: int = 1) -> Table:
    return factories.table(event, number)


def test_a_phone_follows_the_event_language(room):
    page = Client().get(reverse("phone:table", args=[_table(room).token]))
    assert _lang(page) == "fr"
    assert page["Content-Language"] == "fr"
    assert "Langue" in page.content.decode()


def test_a_phone_follows_its_table_sheet_language_before_the_event(room):
    table = _table(room, 2)
    table.sheet_language = "de"
    table.save()
    assert _lang(Client().get(reverse("phone:table", args=[table.token]))) == "de"
    assert _lang(Client().get(reverse("phone:table", args=[_table(room).token]))) == "fr"
    # The players' page belongs to no table: the event's language.
    assert _lang(Client().get(reverse("phone:player_home", args=[room.players_token]))) == "fr"


def test_a_phone_picks_its_own_language_and_keeps_it(room):
    phone, neighbour = Client(), Client()
    token = _table(room).token
    answer = phone.post(reverse("phone:language", args=[token]), {"language": "es"})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("phone:table", args=[token])
    cookie = answer.cookies[PHONE_LANGUAGE_COOKIE]
    assert cookie.value == "es"
    assert cookie["max-age"] >= 365 * 24 * 60 * 60
    assert _lang(phone.get(reverse("phone:table", args=[token]))) == "es"
    assert _lang(phone.get(reverse("phone:player_home", args=[room.players_token]))) == "es"
    assert _lang(neighbour.get(reverse("phone:table", args=[token]))) == "fr"
    # An empty pick follows the room again.
    phone.post(reverse("phone:language", args=[token]), {"language": ""})
    assert _lang(phone.get(reverse("phone:table", args=[token]))) == "fr"


def test_the_players_page_has_its_own_switch(room):
    phone = Client()
    answer = phone.post(
        reverse("phone:player_language", args=[room.players_token]), {"language": "de"}
    )
    assert answer["Location"] == reverse("phone:player_home", args=[room.players_token])
    assert _lang(phone.get(reverse("phone:player_home", args=[room.players_token]))) == "de"


def test_an_unknown_language_is_refused_with_a_message_and_changes_nothing(room):
    phone = Client()
    token = _table(room).token
    phone.post(reverse("phone:language", args=[token]), {"language": "es"})
    answer = phone.post(reverse("phone:language", args=[token]), {"language": "xx"}, follow=True)
    assert "Elige un idioma de la lista." in answer.content.decode()
    assert phone.cookies[PHONE_LANGUAGE_COOKIE].value == "es"


def test_a_phone_cookie_naming_no_shipped_language_is_ignored(room):
    phone = Client()
    phone.cookies[PHONE_LANGUAGE_COOKIE] = "klingon"
    assert _lang(phone.get(reverse("phone:table", args=[_table(room).token]))) == "fr"


def test_the_projector_follows_the_event_whatever_the_browser(room):
    screen = reverse("projector:screen", args=[room.projector_token])
    assert _lang(Client().get(screen, HTTP_ACCEPT_LANGUAGE="de")) == "fr"


def test_the_console_follows_the_browser_then_its_switcher(signed_in, room):
    console = reverse("organizer:event", args=[room.pk])
    assert _lang(signed_in.get(console, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")) == "de"
    assert _lang(signed_in.get(console, HTTP_ACCEPT_LANGUAGE="en")) == "en"
    switched = signed_in.post(reverse("set_language"), {"language": "es", "next": console})
    assert switched["Location"] == console
    assert _lang(signed_in.get(console, HTTP_ACCEPT_LANGUAGE="de")) == "es"


def test_a_new_event_starts_in_the_console_language(signed_in):
    form = signed_in.get(reverse("organizer:event_new"), HTTP_ACCEPT_LANGUAGE="de")
    assert '<option value="de" selected>' in form.content.decode()


def test_the_kit_prints_each_table_in_its_sheet_language(signed_in, room):
    table = _table(room, 2)
    table.sheet_language = "de"
    table.save()
    html = signed_in.get(reverse("kit:event_kit", args=[room.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    toolbar, pages = html.split('<main class="kit-pages">', 1)
    assert "Print the whole kit" in toolbar  # the organizer's own language
    first, second = pages.split('lang="de"', 1)
    assert "Fiche de règles" in first or "fiche de règles" in first
    assert "Trumpf" in second
    assert "atout" not in second


def test_the_sheet_language_is_set_per_table_and_marks_the_paper_stale(signed_in, room):
    table = _table(room)
    table.printed_at = table.event.created_at
    table.printed_signature = table.print_signature
    table.save()
    version = room.version
    url = reverse("organizer:table_sheet_language", args=[room.pk, table.number])
    signed_in.post(url, {"language": "es"})
    table.refresh_from_db()
    room.refresh_from_db()
    assert table.sheet_language == "es"
    assert table.needs_reprint
    assert room.version > version
    refused = signed_in.post(url, {"language": "xx"}, follow=True)
    assert "Choose a language from the list." in refused.content.decode()
    table.refresh_from_db()
    assert table.sheet_language == "es"


def test_english_papers_printed_before_the_languages_stay_current(organizer):
    event = factories.seated_event(owner=organizer, players=4, tables=1)
    table = _table(event)
    assert table.print_signature == f"{table.variant.code} {table.token}"


def test_a_poll_from_a_page_in_another_language_reloads_it(room):
    token = _table(room).token
    live = reverse("phone:table_live", args=[token])
    same = Client().get(live, HTTP_HX_REQUEST="true", HTTP_X_PAGE_LANGUAGE="fr")
    assert "HX-Refresh" not in same
    stale = Client().get(live, HTTP_HX_REQUEST="true", HTTP_X_PAGE_LANGUAGE="en")
    assert stale["HX-Refresh"] == "true"


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_names_sort_the_same_in_every_language(organizer, language):
    event = factories.seated_event(owner=organizer, players=NAMES, tables=2, language=language)
    # The tournament's own order (accents and case folded), never the locale's.
    alphabetical = sorted(NAMES, key=name_key)
    assert alphabetical[:4] == ["Ábel", "Ana", "émile", "ezra"]
    for table in event.tables.all():
        html = Client().get(reverse("phone:table", args=[table.token])).content.decode()
        seated = [name for name in alphabetical if f">{name}<" in html]
        assert len(seated) == 4
        assert sorted(seated, key=lambda name: html.index(f">{name}<")) == seated


def test_dates_are_written_the_language_way(signed_in, room):
    events = reverse("organizer:events")
    day = room.created_at
    german = signed_in.get(events, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert day.strftime("%d.%m.%Y") in german
    english = signed_in.get(events, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{day.day} {day.strftime('%b')} {day.year}" in english


@pytest.mark.parametrize("players", [20, 500])
def test_a_mixed_language_kit_and_console_cost_the_same_queries_at_any_size(
    signed_in, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    Event.objects.filter(pk=event.pk).update(language="de")
    Table.objects.filter(event=event, number__in=[1, 2]).update(sheet_language="fr")
    Table.objects.filter(event=event, number=3).update(sheet_language="es")
    signed_in.get(reverse("kit:event_kit", args=[event.pk]))  # printed: the console checks
    with django_assert_max_num_queries(8):
        kit = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    assert kit.count('class="sheet rule-sheet" lang="fr"') == 2
    assert kit.count('class="sheet rule-sheet" lang="es"') == 1
    assert kit.count('class="sheet rule-sheet" lang="de"') == players // 4 - 3
    with django_assert_max_num_queries(19):
        signed_in.get(reverse("organizer:event", args=[event.pk]))


def _own_picker(html: str) -> str:
    """The phone's language picker: a button per choice, the one in force marked."""
    return html.split('class="language-switch"', 1)[1].split("</form>", 1)[0]


def test_a_phone_can_go_back_to_following_the_room(room):
    phone = Client()
    token = _table(room).token
    fresh = _own_picker(phone.get(reverse("phone:table", args=[token])).content.decode())
    room_choice = 'value="" class="secondary" aria-current="true">Langue de la salle (Français)<'
    assert room_choice in fresh
    assert 'value="fr" lang="fr" class="secondary" aria-current="true"' not in fresh
    phone.post(reverse("phone:language", args=[token]), {"language": "fr"})
    picked = _own_picker(phone.get(reverse("phone:table", args=[token])).content.decode())
    assert 'value="" class="secondary">' in picked
    assert 'value="fr" lang="fr" class="secondary" aria-current="true"' in picked


def test_the_room_option_names_the_table_sheet_language(room):
    table = _table(room, 2)
    table.sheet_language = "de"
    table.save()
    html = Client().get(reverse("phone:table", args=[table.token])).content.decode()
    assert "Sprache im Raum (Deutsch)" in _own_picker(html)


def test_a_refused_pick_is_said_on_the_players_page_itself(room):
    phone = Client()
    url = reverse("phone:player_language", args=[room.players_token])
    page = phone.post(url, {"language": "xx"}, follow=True).content.decode()
    assert "Choisissez une langue dans la liste." in page
    # Said once, where it happened: not again on the next page.
    table = phone.get(reverse("phone:table", args=[_table(room).token])).content.decode()
    assert "Choisissez une langue" not in table


def test_a_dead_phone_link_speaks_the_phones_own_language(room):
    phone = Client()
    phone.post(reverse("phone:language", args=[_table(room).token]), {"language": "de"})
    dead = phone.get(reverse("phone:table", args=["x" * 43]), HTTP_ACCEPT_LANGUAGE="en")
    assert dead.status_code == 404
    assert _lang(dead) == "de"


def test_a_refusal_before_any_view_speaks_the_browser_language(room):
    # A German phone first, on the same server thread: its language must not linger.
    Client().get(reverse("phone:table", args=[_table(room).token]), HTTP_ACCEPT_LANGUAGE="de")
    refused = Client().post(
        reverse("phone:report", args=[_table(room).token]),
        data="winner=1",
        content_type="application/x-www-form-urlencoded; charset=utf-16",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400
    assert _lang(refused) == "en"
    spanish = Client().post(
        reverse("phone:report", args=[_table(room).token]),
        data="winner=1",
        content_type="application/x-www-form-urlencoded; charset=utf-16",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert _lang(spanish) == "es"


def test_each_tally_sheet_is_printed_in_its_table_language(signed_in, organizer):
    event = factories.seated_event(
        owner=organizer, players=8, tables=2, language="fr", paper_only=True
    )
    Table.objects.filter(event=event, number=2).update(sheet_language="de")
    for url in (
        reverse("kit:tally_sheets", args=[event.pk]),
        reverse("kit:event_kit", args=[event.pk]),
    ):
        html = signed_in.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        first, second = html.split('class="sheet tally-sheet" lang="de"', 1)
        assert 'class="sheet tally-sheet" lang="fr"' in first
        assert "Table 1, manche 1" in first
        assert "Tisch 2, Runde 1" in second
