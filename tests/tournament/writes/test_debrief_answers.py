"""The room's answers to the debrief's questions: one per phone, changed while open,
checked by kind, refused once closed, moved on or finished; the organizer's controls."""

from __future__ import annotations

import pytest

from tables.reads.debrief_answers import phone_question
from tables.writes.debrief_answers import answer_question
from tests import factories
from tournament.common.errors import Refused
from tournament.models import DebriefAnswer, DebriefQuestion, Event
from tournament.reads.debrief_answers import question_tally
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_answers import (
    close_answers,
    hide_word,
    reveal_answers,
    set_answer_kind,
)
from tournament.writes.debrief_bank import show_question
from tournament.writes.finishing import finish_event

pytestmark = pytest.mark.django_db

PHONE_A = "a" * 22
PHONE_B = "b" * 22


def at_debrief(organizer, kind: str = AnswerKind.WORDS) -> tuple[Event, DebriefQuestion]:
    """A played event at its debrief, the projector on the default bank's ``kind`` question."""
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    event = factories.play_until(event, "debrief", by=organizer)
    question = DebriefQuestion.objects.get(event=event, answer_kind=kind)
    show_question(event=event, question_id=question.pk)
    event.refresh_from_db()
    return event, question


def answer(event, question, phone=PHONE_A, **given) -> DebriefAnswer:
    return answer_question(event=event, question_id=question.pk, phone=phone, **given)


def test_the_default_bank_marks_one_question_of_each_kind(organizer):
    event = factories.make_event(owner=organizer)
    kinds = list(
        DebriefQuestion.objects.filter(event=event)
        .exclude(answer_kind="")
        .values_list("answer_kind", flat=True)
    )
    assert sorted(kinds) == ["rounds", "scale", "words"]


def test_a_phone_answers_once_and_may_change_its_answer(organizer):
    event, question = at_debrief(organizer)
    answer(event, question, text="  lost   and  curious ")
    answer(event, question, text="curious")
    answer(event, question, phone=PHONE_B, text="Lost")

    stored = sorted(DebriefAnswer.objects.filter(question=question).values_list("text", flat=True))
    assert stored == ["Lost", "curious"]
    assert phone_question(event, PHONE_A).my_text == "curious"


def test_an_answer_bumps_the_projectors_version_but_not_the_phones(organizer):
    event, question = at_debrief(organizer)
    before = Event.objects.values_list("version", "shared_version").get(pk=event.pk)
    answer(event, question, text="tired")
    after = Event.objects.values_list("version", "shared_version").get(pk=event.pk)
    assert after == (before[0] + 1, before[1])


@pytest.mark.parametrize(
    ("kind", "given", "reason"),
    [
        (AnswerKind.WORDS, {"text": "   "}, "Write a word or a few"),
        (AnswerKind.WORDS, {"text": "x" * 41}, "at most 40 characters"),
        (AnswerKind.SCALE, {"number": 6}, "Choose one of the answers offered."),
        (AnswerKind.SCALE, {"number": None}, "Choose one of the answers offered."),
        (AnswerKind.ROUNDS, {"number": 3}, "Choose one of the answers offered."),
    ],
)
def test_an_answer_that_does_not_fit_its_kind_is_refused(organizer, kind, given, reason):
    event, question = at_debrief(organizer, kind)
    with pytest.raises(Refused, match=reason):
        answer(event, question, **given)
    assert not DebriefAnswer.objects.exists()


@pytest.mark.parametrize(
    ("char", "code"), [("\x00", "U+0000"), ("\x1b", "U+001B"), ("\x07", "U+0007")]
)
def test_an_answer_with_a_control_character_is_refused(organizer, char, code):
    event, question = at_debrief(organizer)
    says = f"That answer holds a control character ({code}), which cannot be part of an answer."
    with pytest.raises(Refused) as refused:
        answer(event, question, text=f"lost{char}found")
    assert says in refused.value.message
    assert not DebriefAnswer.objects.exists()


def test_rounds_offer_the_rounds_played_and_the_scale_five_points(organizer):
    event, question = at_debrief(organizer, AnswerKind.ROUNDS)
    answer(event, question, number=2)
    assert [c.value for c in phone_question(event, PHONE_A).choices] == [1, 2]
    assert phone_question(event, PHONE_A).my_answer == "Round 2"
    scale = DebriefQuestion.objects.get(event=event, answer_kind=AnswerKind.SCALE)
    show_question(event=event, question_id=scale.pk)
    event.refresh_from_db()
    assert [c.value for c in phone_question(event, None).choices] == [1, 2, 3, 4, 5]


def test_only_the_question_on_the_projector_takes_answers(organizer):
    event, _question = at_debrief(organizer)
    other = DebriefQuestion.objects.get(event=event, answer_kind=AnswerKind.SCALE)
    with pytest.raises(Refused, match="The projector has moved on"):
        answer(event, other, number=3)


def test_a_closed_question_refuses_answers_and_changes(organizer):
    event, question = at_debrief(organizer)
    answer(event, question, text="calm")
    close_answers(event=event, question_id=question.pk, closed=True)

    with pytest.raises(Refused, match="closed this question"):
        answer(event, question, text="angry")
    assert phone_question(event, PHONE_A).open is False
    assert DebriefAnswer.objects.get().text == "calm"

    close_answers(event=event, question_id=question.pk, closed=False)
    answer(event, question, text="angry")
    assert DebriefAnswer.objects.get().text == "angry"


def test_a_finished_event_keeps_its_answers_read_only(organizer):
    event, question = at_debrief(organizer)
    answer(event, question, text="calm")
    finish_event(event=event)
    event.refresh_from_db()
    for write in (
        lambda: answer(event, question, text="angry"),
        lambda: reveal_answers(event=event, question_id=question.pk, revealed=True),
        lambda: close_answers(event=event, question_id=question.pk, closed=True),
        lambda: hide_word(event=event, question_id=question.pk, word="calm", hidden=True),
    ):
        with pytest.raises(Refused, match="This event is finished"):
            write()
    assert DebriefAnswer.objects.get().text == "calm"


def test_a_hidden_word_leaves_the_chart_in_every_spelling_and_comes_back(organizer):
    event, question = at_debrief(organizer)
    answer(event, question, text="Lost")
    answer(event, question, phone=PHONE_B, text="happy")
    hide_word(event=event, question_id=question.pk, word="LOST ", hidden=True)
    question.refresh_from_db()

    tally = question_tally(event, question)
    assert tally.count == 2
    assert [w.text for w in tally.words] == ["happy"]
    assert [w.count for w in tally.hidden] == [1]

    hide_word(event=event, question_id=question.pk, word="lost", hidden=False)
    question.refresh_from_db()
    assert sorted(w.text.lower() for w in question_tally(event, question).words) == [
        "happy",
        "lost",
    ]


def test_a_word_may_be_hidden_before_anyone_writes_it(organizer):
    event, question = at_debrief(organizer)
    hide_word(event=event, question_id=question.pk, word="boring", hidden=True)
    question.refresh_from_db()
    assert question_tally(event, question).hidden_unused == question.hidden_words
    answer(event, question, text="Boring")
    assert question_tally(event, question).words == []


def test_reveal_changes_what_the_projector_may_show(organizer):
    event, question = at_debrief(organizer)
    assert not question.answers_revealed
    reveal_answers(event=event, question_id=question.pk, revealed=True)
    question.refresh_from_db()
    assert question.answers_revealed


def test_the_rounds_chart_stands_beside_each_tables_first_dispute(organizer):
    event, question = at_debrief(organizer, AnswerKind.ROUNDS)
    answer(event, question, number=1)
    bars = question_tally(event, question).bars
    assert [(bar.number, bar.answers) for bar in bars] == [(1, 1), (2, 0)]
    assert all(bar.disputes == 0 for bar in bars)  # no game was disputed


def test_changing_the_kind_drops_the_answers_of_the_old_kind(organizer):
    event, question = at_debrief(organizer)
    answer(event, question, text="calm")
    set_answer_kind(event=event, question_id=question.pk, kind=AnswerKind.SCALE)
    assert not DebriefAnswer.objects.exists()
    with pytest.raises(Refused, match="Choose how the room answers"):
        set_answer_kind(event=event, question_id=question.pk, kind="poll")
