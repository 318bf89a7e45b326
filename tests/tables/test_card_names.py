"""A card as a screen reader and a player's eye take it: named "7 of hearts" in the
screen's language, its suit always a symbol. No database: outside the PostgreSQL pass."""

from __future__ import annotations

from django.utils import translation

from tables.reads.screen_play import card_view


def test_a_card_is_named_for_a_screen_reader_and_shows_its_suit_symbol():
    seven = card_view("7H")
    assert seven.label == "7 of hearts"
    assert seven.symbol == "♥"
    assert card_view("AS").label == "ace of spades"


def test_a_card_is_named_in_the_screens_language():
    with translation.override("de"):
        assert card_view("AS").label == "Pik-Ass"
    with translation.override("fr"):
        assert card_view("7H").label == "7 de cœur"
