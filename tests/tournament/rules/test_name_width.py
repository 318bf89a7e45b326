"""A name's width on the projector: measured by its letters, and where it may wrap."""

from __future__ import annotations

from tournament.rules.name_width import name_width, two_line_width


def test_a_name_is_measured_by_its_letters_not_its_length():
    assert name_width("WWWW") > name_width("Anna") > name_width("iiii")
    assert name_width("Émilie") == name_width("Emilie"), "accents take no room"
    assert name_width("山田太郎") == 4 * name_width("山") > name_width("Yamada")


def test_two_lines_break_at_a_space_or_after_a_hyphen_only():
    assert two_line_width("Ann Lee") == max(name_width("Ann"), name_width("Lee"))
    assert two_line_width("Fitzgerald-Moore") == max(name_width("Fitzgerald-"), name_width("Moore"))
    assert two_line_width("Oluwaseun") == name_width("Oluwaseun"), "one word cannot wrap"
