"""What the window says in each phase, its QR rows and its language (no display needed)."""

from __future__ import annotations

from django.utils import translation

from tournament.window.screen import (
    DARK,
    GREYED,
    LIGHT,
    Phase,
    language,
    qr_matrix,
    qr_rows,
    shown,
)


def test_while_preparing_it_says_so_with_the_seconds_and_the_servers_latest_step():
    now = shown(Phase.PREPARING, elapsed=12.7, step="Preparing the database…")
    assert now.title == "Five Tricks – preparing…"
    assert now.state == "Preparing… (12 s)"
    assert now.detail == "Preparing the database…"
    assert (now.can_open, now.can_stop, now.asks_before_closing) == (False, True, True)
    assert shown(Phase.PREPARING).detail == "Starting the server…"


def test_ready_opens_the_console_and_closing_asks_first():
    now = shown(Phase.READY)
    assert now.title == "Five Tricks – ready"
    assert (now.can_open, now.can_stop, now.asks_before_closing) == (True, True, True)
    assert now.address_live


def test_once_stopping_or_stopped_nothing_asks_no_button_works_and_the_address_is_greyed():
    for phase in (Phase.STOPPING, Phase.STOPPED, Phase.FAILED):
        now = shown(phase)
        assert (now.can_open, now.can_stop, now.asks_before_closing) == (False, False, False)
        assert not now.address_live


def test_an_unexpected_end_shows_the_servers_last_lines():
    tail = [f"line {n}" for n in range(10)] + ["CommandError: port in use"]
    now = shown(Phase.FAILED, tail=tail)
    assert now.detail.splitlines() == [*tail[-6:]]
    assert shown(Phase.FAILED).detail == "(it said nothing)"


def test_the_window_speaks_french_to_a_french_laptop():
    with translation.override("fr"):
        assert shown(Phase.READY).title == "Five Tricks – prêt"


def test_qr_rows_draw_each_module_as_one_pixel_dark_on_white():
    matrix = qr_matrix("http://192.168.1.20:8000/")
    rows = qr_rows(matrix)
    assert rows.count("{") == len(matrix)
    first = rows.split("} {")[0].strip("{}").split()
    assert first == [DARK if dark else LIGHT for dark in matrix[0]]
    assert set(first) == {LIGHT}  # the quiet zone
    greyed = qr_rows(matrix, dark=GREYED)
    assert greyed == rows.replace(DARK, GREYED)


def test_the_language_is_the_first_of_the_laptops_that_the_product_has():
    known = ["en", "fr", "es", "de"]
    assert language({"LANG": "de_DE.UTF-8"}, known) == "de"
    assert language({"LANGUAGE": "it:es", "LANG": "it_IT.UTF-8"}, known) == "es"
    assert language({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, known) == "fr"
    assert language({"LANG": "C.UTF-8"}, known) == "en"
    assert language({}, known, windows_code="fr_FR") == "fr"
    assert language({"LANG": "ja_JP.UTF-8"}, known) == "en"
