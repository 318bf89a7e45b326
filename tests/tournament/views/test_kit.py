"""The printable table kit: owner only, a tent card, a rule sheet and the players' guide per
table, QR codes that phones can reach, the paper size, reprinting one table, and the
tables whose paper went out of date (a new variant or link after printing)."""

from __future__ import annotations

import html as html_module
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tables.models import Table
from tables.rules.players_guide import players_guide
from tables.rules.rule_sheets import rule_sheet
from tests import factories
from tests.factories import table
from tests.tournament.common.test_qr import dark_modules, expected_modules
from tournament.models import Event

pytestmark = pytest.mark.django_db

PUBLIC = "http://fivetricks.example:8000"


@pytest.fixture
def event(organizer):
    return factories.seated_event(owner=organizer, players=14, tables=3)


def kit_url(event, **query) -> str:
    url = reverse("kit:event_kit", args=[event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def body(response) -> str:
    return html_module.unescape(response.content.decode())


def tent_cards(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet tent".*?</section>', raw, flags=re.S)


def rule_pages(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet rule-sheet".*?</section>', raw, flags=re.S)


def deal_rows(page: str) -> list[list[str]]:
    """The deal table's body rows, each as the texts of its cells."""
    (body,) = re.findall(r'<table class="grid deal-table">.*?<tbody>(.*?)</tbody>', page, re.S)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    return [[t.strip() for t in re.split(r"<[^>]+>", row) if t.strip()] for row in rows]


def guide_pages(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet guide".*?</section>', raw, flags=re.S)


def page_kinds(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet ([\w-]+)"', raw)


def qr_codes(raw: str) -> list[str]:
    return re.findall(r'<svg [^>]*class="qr".*?</svg>', raw, flags=re.S)


def test_signing_in_is_required(client, event):
    response = client.get(kit_url(event))
    assert response.status_code == 302
    assert reverse("organizer:login") in response["Location"]


def test_another_organizers_event_is_not_found(client, event, django_user_model):
    client.force_login(factories.make_user(django_user_model))
    assert client.get(kit_url(event)).status_code == 404


def test_a_superuser_may_print_any_kit(client, event, django_user_model):
    client.force_login(factories.make_user(django_user_model, superuser=True))
    assert client.get(kit_url(event)).status_code == 200


def test_each_table_gets_a_tent_card_and_its_rule_sheet_in_table_order(signed_in, event, settings):
    settings.PUBLIC_URL = PUBLIC
    raw = signed_in.get(kit_url(event)).content.decode()

    tents, sheets = tent_cards(raw), rule_pages(raw)
    assert len(tents) == len(sheets) == 3
    for number, (tent, sheet) in enumerate(zip(tents, sheets, strict=True), start=1):
        current = table(event, number)
        # Both halves: the big number and the QR code, one half upside down.
        assert tent.count(f"<b>{number}</b>") == 2
        assert tent.count('class="tent-half flipped"') == 1
        assert tent.count('class="scan-hint"') == 2
        url = PUBLIC + reverse("phone:table", args=[current.token])
        codes = qr_codes(tent)
        assert len(codes) == 2
        assert all(dark_modules(code) == expected_modules(url) for code in codes)
        # The full rules of its own variant, and the deal at every size from 3 to 7 players
        # (moves change table sizes) with the row of the players seated there marked.
        players = current.seats.filter(round__number=1).count()
        expected = rule_sheet(current.variant, players=players)
        text = html_module.unescape(sheet)
        assert all(section.text in text for section in expected.sections)
        assert deal_rows(text) == [
            [*(["▶"] if row.home else []), str(row.players)]
            + (["(this table now)"] if row.home else [])
            + [row.cards, str(row.tricks), row.last_trick]
            for row in expected.deal_table.rows
        ]
        assert [row.players for row in expected.deal_table.rows] == [3, 4, 5, 6, 7]
        assert text.count('class="is-home"') == 1


def test_qr_codes_never_point_at_localhost(signed_in, event, monkeypatch):
    monkeypatch.setattr("tournament.common.network.lan_addresses", lambda: ["192.168.7.42"])

    response = signed_in.get(kit_url(event), HTTP_HOST="localhost:8000")

    url = "http://192.168.7.42:8000" + reverse("phone:table", args=[table(event, 1).token])
    code = qr_codes(response.content.decode())[0]
    assert dark_modules(code) == expected_modules(url)
    assert "The QR codes lead phones to http://192.168.7.42:8000" in body(response)


def test_a_laptop_without_network_is_warned_before_printing(signed_in, event, monkeypatch):
    monkeypatch.setattr("tournament.common.network.lan_addresses", lambda: [])
    response = signed_in.get(kit_url(event), HTTP_HOST="localhost:8000")
    assert "which phones cannot reach" in body(response)


@pytest.mark.parametrize(
    ("query", "code", "size"),
    [({}, "a4", "A4 portrait"), ({"paper": "letter"}, "letter", "letter portrait")],
)
def test_the_paper_sets_the_printed_page_size(signed_in, event, query, code, size):
    raw = signed_in.get(kit_url(event, **query)).content.decode()
    # From the stylesheet, by the class on <body>: the CSP refuses an inline <style>.
    assert f'<body class="kit paper-{code}"' in raw
    assert "<style" not in raw
    css = (Path(settings.BASE_DIR) / "static" / "css" / "kit.css").read_text(encoding="utf-8")
    assert f"@page {code} {{ size: {size}; margin: 0; }}" in css
    assert re.search(rf"body\.paper-{code} {{[^}}]*page: {code};", css)
    # The print button works through static/js/kit.js: no inline handler.
    assert re.search(r'<button type="button" class="print-button" data-print>', raw)
    assert "js/kit.js" in raw
    assert "onclick" not in raw


def test_one_table_can_be_printed_alone(signed_in, event):
    raw = signed_in.get(kit_url(event, table=2)).content.decode()
    assert len(tent_cards(raw)) == 1
    assert "<b>2</b>" in tent_cards(raw)[0]


@pytest.mark.parametrize("number", ["²", "①", "0", "-1", "two", ""])
def test_a_table_that_is_not_a_number_prints_the_whole_kit(signed_in, event, number):
    response = signed_in.get(kit_url(event, table=number))
    assert response.status_code == 200
    assert len(tent_cards(response.content.decode())) == 3


def test_the_kit_answers_to_the_same_people_as_the_console(client, event, django_user_model):
    people = {
        "owner": event.owner,
        "another organizer": factories.make_user(django_user_model),
        "superuser": factories.make_user(django_user_model, superuser=True),
    }
    for who, user in people.items():
        client.force_login(user)
        console = client.get(reverse("organizer:event", args=[event.pk])).status_code
        assert client.get(kit_url(event)).status_code == console, who


def test_a_table_that_does_not_exist_goes_back_to_the_whole_kit(signed_in, event):
    response = signed_in.get(kit_url(event, table=9), follow=True)
    assert "There is no table 9." in body(response)
    assert len(tent_cards(response.content.decode())) == 3


def test_before_the_table_plan_the_kit_says_what_to_do(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    assert "There are no tables yet" in body(signed_in.get(kit_url(event)))


def test_a_table_with_a_new_link_is_reprinted_with_its_new_code(signed_in, event, settings):
    settings.PUBLIC_URL = PUBLIC
    table(event, 2).rotate_token()

    raw = signed_in.get(kit_url(event, table=2)).content.decode()

    url = PUBLIC + reverse("phone:table", args=[table(event, 2).token])
    assert all(dark_modules(code) == expected_modules(url) for code in qr_codes(raw))


@pytest.mark.parametrize("players", [20, 500])
def test_reprinting_costs_the_same_queries_at_any_size(
    signed_in, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    signed_in.get(kit_url(event))
    for number in range(1, players // 4 + 1, 2):
        table(event, number).rotate_token()
    url = kit_url(event, reprint=1)
    # The reads (the room settings among them), then one UPDATE of the tables and one of
    # the event's version, together.
    with django_assert_max_num_queries(11):
        response = signed_in.get(url)
    assert len(tent_cards(response.content.decode())) == (players // 4 + 1) // 2


@pytest.mark.parametrize("players", [20, 500])
def test_the_kit_costs_the_same_queries_at_any_size(
    signed_in, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    url = kit_url(event)
    with django_assert_max_num_queries(9):  # the room settings (address, Wi-Fi): one
        response = signed_in.get(url)
    assert len(tent_cards(response.content.decode())) == players // 4


# --- the players' guide ------------------------------------------------------------------


def test_each_table_gets_one_guide_page_after_its_rule_sheet(signed_in, event):
    raw = signed_in.get(kit_url(event)).content.decode()
    assert page_kinds(raw) == ["tent", "rule-sheet", "guide"] * 3
    pages = guide_pages(raw)
    expected = players_guide(
        study_minutes=event.study_minutes,
        practice_minutes=event.practice_minutes,
        round_minutes=event.round_minutes,
    )
    for number, page in enumerate(pages, start=1):
        text = html_module.unescape(page)
        assert f"Table {number}" in text
        assert expected.title in text
        assert all(
            paragraph in text for section in expected.sections for paragraph in section.paragraphs
        )
        # The silence rule with its icons, gestures and drawings allowed.
        assert page.count('class="silence"') == 1
        assert "Gestures are fine" in text
        assert "Drawings are fine" in text


def test_the_guide_shows_the_events_own_times(signed_in, organizer):
    event = factories.seated_event(
        owner=organizer, players=8, tables=2, study_minutes=9, practice_minutes=4, round_minutes=7
    )
    page = html_module.unescape(guide_pages(signed_in.get(kit_url(event)).content.decode())[0])
    assert "about 9 min" in page
    assert "about 4 min" in page
    assert "about 7 min each" in page


def test_the_guide_page_is_the_same_at_every_table(signed_in, event):
    pages = guide_pages(signed_in.get(kit_url(event)).content.decode())
    without_number = {re.sub(r"[Tt]able \d+", "", page) for page in pages}
    assert len(pages) == 3
    assert len(without_number) == 1


def test_one_table_alone_gets_its_guide_too(signed_in, event):
    raw = signed_in.get(kit_url(event, table=2)).content.decode()
    assert page_kinds(raw) == ["tent", "rule-sheet", "guide"]


# --- out-of-date paper ----------------------------------------------------------------------


def console(client, event) -> str:
    return body(client.get(reverse("organizer:event", args=[event.pk])))


def stale(event) -> list[int]:
    return [
        t.number for t in Table.objects.filter(event=event).order_by("number") if t.needs_reprint
    ]


def test_opening_the_kit_marks_the_tables_it_shows_as_printed(signed_in, event):
    assert not Table.objects.filter(event=event, printed_at__isnull=False).exists()
    signed_in.get(kit_url(event, table=2))
    printed = Table.objects.filter(event=event, printed_at__isnull=False)
    assert [t.number for t in printed] == [2]

    signed_in.get(kit_url(event))
    assert Table.objects.filter(event=event, printed_at__isnull=True).count() == 0


def test_the_kit_of_a_finished_event_writes_nothing(signed_in, event):
    signed_in.get(kit_url(event, table=1))
    table(event, 1).rotate_token()
    Event.objects.filter(pk=event.pk).update(finished_at=timezone.now())
    before = list(Table.objects.filter(event=event).order_by("number").values())
    version = Event.objects.values_list("version", flat=True).get(pk=event.pk)
    for query in ({}, {"table": 2}, {"reprint": 1}):
        with CaptureQueriesContext(connection) as queries:
            response = signed_in.get(kit_url(event, **query))
        assert response.status_code == 200
        writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
        assert writes == []
    assert list(Table.objects.filter(event=event).order_by("number").values()) == before
    assert Event.objects.values_list("version", flat=True).get(pk=event.pk) == version


def test_a_table_printed_before_its_redraw_is_named_on_the_console(signed_in, event):
    signed_in.get(kit_url(event))
    assert "Reprint table" not in console(signed_in, event)

    signed_in.post(
        reverse("organizer:table_variant", args=[event.pk]), {"table": 2, "variant": "draw"}
    )

    page = console(signed_in, event)
    assert stale(event) == [2]
    assert "Reprint table 2: its variant or phone link changed" in page
    assert kit_url(event) + "?reprint=1" in page


def test_tables_whose_variant_a_full_redraw_changed_are_named(signed_in, event):
    signed_in.get(kit_url(event))
    before = {t.number: t.variant for t in Table.objects.filter(event=event)}

    signed_in.post(reverse("organizer:variants_redraw", args=[event.pk]))

    after = {t.number: t.variant for t in Table.objects.filter(event=event)}
    changed = [number for number in sorted(after) if after[number] != before[number]]
    assert stale(event) == changed
    raw = signed_in.get(kit_url(event, reprint=1)).content.decode()
    assert [re.search(r"<b>(\d+)</b>", tent)[1] for tent in tent_cards(raw)] == [
        str(number) for number in changed
    ]


def test_a_table_given_a_new_link_after_printing_is_named_on_the_console(signed_in, event):
    signed_in.get(kit_url(event))

    signed_in.post(reverse("organizer:table_rotate_link", args=[event.pk, 3]))
    signed_in.post(reverse("organizer:table_rotate_link", args=[event.pk, 1]))

    assert stale(event) == [1, 3]
    assert "Reprint tables 1, 3: their variants or phone links changed" in console(signed_in, event)


def test_changes_before_the_first_print_ask_for_no_reprint(signed_in, event):
    signed_in.post(reverse("organizer:table_rotate_link", args=[event.pk, 1]))
    assert "Reprint table" not in console(signed_in, event)


def test_reprint_prints_only_the_changed_tables_with_their_new_code(signed_in, event, settings):
    settings.PUBLIC_URL = PUBLIC
    signed_in.get(kit_url(event))
    table(event, 3).rotate_token()

    raw = signed_in.get(kit_url(event, reprint=1)).content.decode()

    assert page_kinds(raw) == ["tent", "rule-sheet", "guide"]
    url = PUBLIC + reverse("phone:table", args=[table(event, 3).token])
    assert all(dark_modules(code) == expected_modules(url) for code in qr_codes(raw))
    text = html_module.unescape(raw)
    assert "Only table 3: its variant or phone link changed" in text
    assert "Print the changed table" in text
    # Switching paper keeps to the changed tables.
    assert "?paper=letter&reprint=1" in text


def test_opening_the_reprint_clears_the_warning(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 1).rotate_token()
    table(event, 2).rotate_token()
    assert "?reprint=1" in console(signed_in, event)

    signed_in.get(kit_url(event, reprint=1))

    assert stale(event) == []
    assert "Reprint table" not in console(signed_in, event)


def test_reprinting_one_changed_table_leaves_the_others_named(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 1).rotate_token()
    table(event, 2).rotate_token()

    signed_in.get(kit_url(event, table=2))

    assert stale(event) == [1]
    assert "Reprint table 1:" in console(signed_in, event)


def test_the_console_poll_drops_the_warning_once_reprinted(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 2).rotate_token()
    live = reverse("organizer:event_live", args=[event.pk])
    etag = signed_in.get(live)["ETag"]
    assert "Reprint table 2:" in body(signed_in.get(live))

    signed_in.get(kit_url(event, reprint=1))

    response = signed_in.get(live, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "Reprint table" not in body(response)


def test_the_whole_kit_points_at_the_changed_tables(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 2).rotate_token()

    text = body(signed_in.get(kit_url(event, paper="letter")))

    assert "Table 2 changed after it was printed." in text
    assert "?paper=letter&reprint=1" in text
    assert stale(event) == []


def test_nothing_to_reprint_says_so_and_prints_nothing(signed_in, event):
    signed_in.get(kit_url(event))
    response = signed_in.get(kit_url(event, reprint=1))
    text = body(response)
    assert response.status_code == 200
    assert "Nothing to reprint" in text
    assert page_kinds(response.content.decode()) == []
    assert "There are no tables yet" not in text


def test_a_table_number_wins_over_reprint(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 3).rotate_token()
    raw = signed_in.get(kit_url(event, table=1, reprint=1)).content.decode()
    assert "<b>1</b>" in tent_cards(raw)[0]
    assert stale(event) == [3]


def test_printing_is_one_update_of_the_tables(signed_in, event):
    signed_in.get(kit_url(event))
    table(event, 1).rotate_token()
    table(event, 2).rotate_token()
    with CaptureQueriesContext(connection) as queries:
        signed_in.get(kit_url(event))
    updates = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
    # The event's row first, as every bridge locks it before its tables'.
    assert [sql.split()[1] for sql in updates] == ['"tournament_event"', '"tables_table"']
