"""Every clause's rule sheet, in every language, carries each of its sentences translated.

Terms:
    sentence     one message a sheet asks its ``translate`` for while it is built
                 (tables.rules.rule_sheets, and the suit names it borrows from
                 tables.rules.variants), e.g. "Play lower with trumps too: ...".
    translated   the language's catalogue has the sentence: gettext gives something other
                 than the English (a fuzzy or missing entry gives the English back). English
                 is the source, so there every sentence is its own translation.
    on the sheet every piece of the translated sentence between its placeholders is in the
                 sheet's text: the sentence reached the table, whole and in its language.
    rendered     the sheet as the printed kit shows it (templates/kit/kit.html), read back
                 from the HTML as text.

tests/test_no_english_left.py compares whole sections with English, so a section that is
translated but for one added sentence (a clause's, say) passes there; here each sentence
is checked on its own, which is what a table reads. The wording of each language is the
catalogue's (tests/test_catalogue_words.py keeps the reviewed wordings).
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tables.rules.rule_sheets import RuleSheet, rule_sheet
from tables.rules.variants import DECK_SIZE, EVERY_VARIANT, Clause, Variant
from tests import factories

LANGUAGES = ("en", "fr", "es", "de")
# The game's name is the same in every language.
SAME_IN_EVERY_LANGUAGE = {"Five Tricks"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def clause_variants(clause: Clause | None) -> list[Variant]:
    """Every variant with ``clause``, or every variant with no clause at all."""
    if clause is None:
        return [variant for variant in EVERY_VARIANT if not variant.clauses]
    return [variant for variant in EVERY_VARIANT if clause in variant.clauses]


def built(variant: Variant, players: int | None, language: str) -> tuple[RuleSheet, set[str]]:
    """The sheet in ``language`` and the sentences it asked for."""
    asked: set[str] = set()

    def record(message: str) -> str:
        asked.add(message)
        return gettext(message)

    with translation.override(language):
        return rule_sheet(variant, players=players, translate=record), asked


def sheet_text(sheet: RuleSheet) -> str:
    parts = [sheet.title, sheet.subtitle, sheet.deal or ""]
    for section in sheet.sections:
        parts += [section.heading, section.text]
    table = sheet.deal_table
    parts += [table.caption, *table.headings]
    parts += [cell for row in table.rows for cell in (row.cards, row.last_trick)]
    return flat("\n".join(parts))


def flat(text: str) -> str:
    """Whitespace as single spaces; a non-breaking space counts as one (str.split)."""
    return " ".join(text.split())


def missing(sentences: set[str], text: str, language: str) -> list[str]:
    """The sentences not translated into ``language``, or not whole in ``text``."""
    problems = []
    with translation.override(language):
        for sentence in sorted(sentences):
            words = gettext(sentence)
            if language != "en" and words == sentence and sentence not in SAME_IN_EVERY_LANGUAGE:
                problems.append(f"left in English: {sentence!r}")
                continue
            pieces = [flat(piece) for piece in PLACEHOLDER.split(words)]
            if any(piece and piece not in text for piece in pieces):
                problems.append(f"not on the sheet: {words!r}")
    return problems


# --- every variant of each clause, built -------------------------------------------------


@pytest.mark.parametrize("clause", [*Clause, None], ids=[*Clause, "no-clause"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_sentence_of_a_clause_sheet_is_translated_and_on_the_sheet(language, clause):
    problems = []
    for variant in clause_variants(clause):
        sheet, sentences = built(variant, None, language)
        found = missing(sentences, sheet_text(sheet), language)
        problems += [f"{variant.code}: {problem}" for problem in found]
    assert not problems, f"{language}, {clause}:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_sentence_of_the_deal_line_is_translated_and_on_the_sheet(language):
    # The table's size changes only the deal line, whatever the clauses: one sheet, every
    # size a deck can deal to.
    problems = []
    for players in range(1, DECK_SIZE + 1):
        sheet, sentences = built(EVERY_VARIANT[0], players, language)
        found = missing(sentences, sheet_text(sheet), language)
        problems += [f"{players} players: {problem}" for problem in found]
    assert not problems, f"{language}:\n" + "\n".join(problems[:20])


def test_a_sentence_left_in_english_or_off_the_sheet_is_caught():
    sheet, sentences = built(Variant.from_code("low-hearts-overtake"), None, "de")
    text = sheet_text(sheet)
    assert missing(sentences, text, "de") == []
    made_up = "Play sideways with trumps too."
    assert missing({*sentences, made_up}, text, "de") == [f"left in English: {made_up!r}"]
    overtake = (
        "Play lower with trumps too: a trump played after another must beat it, with a "
        "lower trump, if you can."
    )
    with translation.override("de"):
        german = gettext(overtake)
    assert missing(sentences, text.replace(flat(german), ""), "de") == [
        f"not on the sheet: {german!r}"
    ]


# --- the printed kit, rendered -----------------------------------------------------------


def covering_variants() -> list[Variant]:
    """Few variants whose sheets together ask for every sentence any sheet asks for, each
    clause and direction among them."""
    chosen: list[Variant] = []
    seen: set[str] = set()
    for variant in EVERY_VARIANT:
        _sheet, sentences = built(variant, None, "en")
        if not sentences <= seen:
            chosen.append(variant)
            seen |= sentences
    return chosen


def rule_pages(page: str) -> list[str]:
    """Each table's rule sheet in the kit, as text."""
    sections = re.findall(r'<section class="sheet rule-sheet".*?</section>', page, flags=re.S)
    return [flat(html.unescape(re.sub(r"<[^>]+>", " ", section))) for section in sections]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_printed_kit_shows_every_clause_sheet_translated_whole(signed_in, organizer, language):
    variants = covering_variants()
    assert {clause for variant in variants for clause in variant.clauses} == set(Clause)
    assert {variant.ace_high for variant in variants} == {True, False}
    event = factories.seated_event(owner=organizer, players=3 * len(variants), tables=len(variants))
    for number, variant in enumerate(variants, start=1):
        table = factories.table(event, number)
        table.set_variant(variant)
        table.sheet_language = language
        table.save()

    page = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()

    pages = rule_pages(page)
    assert len(pages) == len(variants)
    problems = []
    for number, (variant, text) in enumerate(zip(variants, pages, strict=True), start=1):
        # The kit prints no deal line (its deal table gives every size): a bare sheet.
        _sheet, sentences = built(variant, None, language)
        problems += [
            f"table {number} ({variant.code}): {p}" for p in missing(sentences, text, language)
        ]
    assert not problems, f"{language}:\n" + "\n".join(problems[:20])
