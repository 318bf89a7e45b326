"""An event's debrief questions: born with the default bank, edited by the organizer, and
shown on the projector one at a time (tournament.writes.debrief_bank, tournament.reads.debrief)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction

from tests import factories
from tournament.common.errors import Refused
from tournament.models import SCREEN_EVENT_STEPS, DebriefQuestion, DebriefStep, Event
from tournament.reads.debrief import debrief_progress, debrief_slides
from tournament.rules.debrief_questions import DEFAULT_BANK, QUESTION_MAX_LENGTH, Stage
from tournament.writes.debrief_bank import (
    Direction,
    add_question,
    delete_question,
    edit_question,
    move_question,
    reset_questions,
    set_paths_highlight,
    show_question,
)
from tournament.writes.rounds import start_debrief, step_debrief

pytestmark = pytest.mark.django_db


def bank(event: Event) -> list[tuple[str, str]]:
    """(stage, text) of the event's questions in position order."""
    return list(
        DebriefQuestion.objects.filter(event=event)
        .order_by("position")
        .values_list("stage", "text")
    )


def of_stage(event: Event, stage: Stage) -> list[DebriefQuestion]:
    return list(DebriefQuestion.objects.filter(event=event, stage=stage).order_by("position"))


def version(event: Event) -> int:
    return Event.objects.values_list("version", flat=True).get(pk=event.pk)


def debriefed(organizer) -> Event:
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    return start_debrief(event=event)


# --- every event is born with the bank ---------------------------------------------------


def test_a_new_event_is_born_with_the_default_bank_of_its_own(organizer):
    first = factories.make_event(owner=organizer)
    second = factories.make_event(owner=organizer, name="Saturday")
    expected = [(q.stage.value, q.text) for q in DEFAULT_BANK]
    assert bank(first) == bank(second) == expected
    assert list(first.debrief_questions.values_list("position", flat=True)) == list(
        range(1, len(DEFAULT_BANK) + 1)
    )
    first.name = "Renamed"
    first.save()
    assert len(bank(first)) == len(DEFAULT_BANK), "saving again adds nothing"


def test_the_migration_gives_an_event_without_questions_the_bank(organizer):
    event = factories.make_event(owner=organizer)
    DebriefQuestion.objects.filter(event=event).delete()
    migration = importlib.import_module("tournament.migrations.0007_debrief_questions")
    migration.give_every_event_the_default_bank(apps, None)
    assert bank(event) == [(q.stage.value, q.text) for q in DEFAULT_BANK]


def test_the_database_refuses_an_empty_question_and_a_position_taken(event):
    with pytest.raises(IntegrityError), transaction.atomic():
        DebriefQuestion.objects.create(event=event, position=99, stage=Stage.COPING, text="")
    with pytest.raises(IntegrityError), transaction.atomic():
        DebriefQuestion.objects.create(event=event, position=1, stage=Stage.COPING, text="Why?")
    with pytest.raises(IntegrityError), transaction.atomic():
        DebriefQuestion.objects.create(event=event, position=99, stage="gossip", text="Why?")


# --- editing -----------------------------------------------------------------------------


def test_a_question_added_goes_to_the_end_of_its_stage_tidied(event):
    before = version(event)
    added = add_question(event=event, text="  Who  helped\nyou? ", stage=Stage.COPING)
    assert added.text == "Who helped you?"
    assert of_stage(event, Stage.COPING)[-1] == added
    assert len(bank(event)) == len(DEFAULT_BANK) + 1
    assert version(event) > before, "the screens hear of it"


def test_a_question_edited_keeps_its_place_unless_its_stage_changes(event):
    question = of_stage(event, Stage.FEELINGS)[0]
    edit_question(question=question, text="How are you?", stage=Stage.FEELINGS)
    assert of_stage(event, Stage.FEELINGS)[0].text == "How are you?"

    edit_question(question=question, text="How are you?", stage=Stage.REAL_WORLD)
    assert of_stage(event, Stage.REAL_WORLD)[-1].pk == question.pk
    assert question.pk not in {q.pk for q in of_stage(event, Stage.FEELINGS)}


def test_an_edit_that_changes_nothing_tells_no_screen(event):
    question = of_stage(event, Stage.FEELINGS)[0]
    before = version(event)
    edit_question(question=question, text=question.text + "  ", stage=question.stage)
    assert version(event) == before


@pytest.mark.parametrize(
    ("text", "stage", "reason"),
    [
        ("", Stage.FEELINGS, "Write the question: it cannot be empty."),
        (" \n\t", Stage.FEELINGS, "Write the question: it cannot be empty."),
        ("x" * (QUESTION_MAX_LENGTH + 1), Stage.FEELINGS, "at most 240 characters"),
        ("Why?", "gossip", "Choose one of the stages."),
    ],
)
def test_refused_words_or_stage_change_nothing(event, text, stage, reason):
    question = of_stage(event, Stage.FEELINGS)[0]
    before = (bank(event), version(event))
    with pytest.raises(Refused, match=reason):
        edit_question(question=question, text=text, stage=stage)
    with pytest.raises(Refused, match=reason):
        add_question(event=event, text=text, stage=stage)
    assert (bank(event), version(event)) == before


def test_the_longest_question_allowed_is_kept_whole(event):
    text = "y" * (QUESTION_MAX_LENGTH - 1) + "?"
    assert add_question(event=event, text=text, stage=Stage.HAPPENED).text == text


def test_a_move_swaps_neighbours_of_the_same_stage_and_no_other(event):
    first, second, third = of_stage(event, Stage.NOTICING)
    others = [q for q in bank(event) if q[0] != Stage.NOTICING]

    move_question(question=third, direction=Direction.UP)
    assert of_stage(event, Stage.NOTICING) == [first, third, second]
    move_question(question=first, direction=Direction.DOWN)
    assert of_stage(event, Stage.NOTICING) == [third, first, second]
    assert [q for q in bank(event) if q[0] != Stage.NOTICING] == others


def test_a_move_past_the_edge_of_its_stage_is_refused(event):
    first, *_rest, last = of_stage(event, Stage.COPING)
    with pytest.raises(Refused, match="already the first question of its stage"):
        move_question(question=first, direction=Direction.UP)
    with pytest.raises(Refused, match="already the last question of its stage"):
        move_question(question=last, direction=Direction.DOWN)


def test_a_question_deleted_is_gone_and_the_others_stay(event):
    question = of_stage(event, Stage.ADAPTING)[1]
    delete_question(question=question)
    assert not DebriefQuestion.objects.filter(pk=question.pk).exists()
    assert len(bank(event)) == len(DEFAULT_BANK) - 1


def test_reset_brings_back_the_default_bank(event):
    for question in of_stage(event, Stage.FEELINGS):
        delete_question(question=question)
    add_question(event=event, text="Mine?", stage=Stage.COPING)
    questions = reset_questions(event=event)
    assert len(questions) == len(DEFAULT_BANK)
    assert bank(event) == [(q.stage.value, q.text) for q in DEFAULT_BANK]


# --- showing a question --------------------------------------------------------------------


def test_a_question_is_shown_only_at_the_debrief_and_only_one_of_the_events(organizer):
    event = factories.make_event(owner=organizer)
    question = of_stage(event, Stage.FEELINGS)[0]
    with pytest.raises(Refused, match="after the last round"):
        show_question(event=event, question_id=question.pk)

    event = debriefed(organizer)
    foreign = of_stage(factories.make_event(owner=organizer), Stage.FEELINGS)[0]
    with pytest.raises(Refused, match="no longer in the list"):
        show_question(event=event, question_id=foreign.pk)
    before = version(event)
    mine = of_stage(event, Stage.FEELINGS)[0]
    show_question(event=event, question_id=mine.pk)
    event.refresh_from_db()
    assert (event.debrief_step, event.debrief_question_id) == (DebriefStep.QUESTION, mine.pk)
    assert event.version > before
    show_question(event=event, question_id=mine.pk)
    assert version(event) == event.version, "showing it again changes nothing"


def test_a_screen_number_never_shows_a_question(organizer):
    event = debriefed(organizer)
    with pytest.raises(Refused, match="no such debrief screen"):
        step_debrief(event=event, to_step=DebriefStep.QUESTION)


def test_the_running_order_numbers_the_questions_between_the_screens(organizer):
    event = debriefed(organizer)
    slides = debrief_slides(event)
    assert len(slides) == len(DebriefStep) - 1 - len(SCREEN_EVENT_STEPS) + len(DEFAULT_BANK)
    assert slides[0].step == DebriefStep.OPENING
    assert [s.number for s in slides if s.is_question] == list(range(1, len(DEFAULT_BANK) + 1))
    reveal = next(i for i, s in enumerate(slides) if s.step == DebriefStep.REVEAL)
    assert slides[reveal + 1].stage == Stage.REAL_WORLD
    assert slides[reveal + 1].is_question
    assert [s.key for s in slides[:2]] == ["step:0", f"question:{slides[1].question_id}"]


def test_deleting_the_question_on_the_projector_moves_it_on(organizer):
    event = debriefed(organizer)
    first, second, _third = of_stage(event, Stage.FEELINGS)
    show_question(event=event, question_id=first.pk)
    delete_question(question=first)
    event.refresh_from_db()
    assert (event.debrief_step, event.debrief_question_id) == (DebriefStep.QUESTION, second.pk)

    last = of_stage(event, Stage.REAL_WORLD)[-1]
    show_question(event=event, question_id=last.pk)
    delete_question(question=last)
    event.refresh_from_db()
    before_last = of_stage(event, Stage.REAL_WORLD)[-1]
    assert event.debrief_question_id == before_last.pk, "at the end, the one before"


def test_deleting_the_question_after_a_screen_leaves_the_screen(organizer):
    event = debriefed(organizer)
    happened = of_stage(event, Stage.HAPPENED)
    show_question(event=event, question_id=happened[-1].pk)
    delete_question(question=happened[-1])
    event.refresh_from_db()
    assert event.debrief_step == DebriefStep.DISPUTES, "the next slide is the disputes map"


def test_reset_while_a_question_shows_shows_the_first_new_one_of_its_stage(organizer):
    event = debriefed(organizer)
    shown = of_stage(event, Stage.COPING)[1]
    show_question(event=event, question_id=shown.pk)
    reset_questions(event=event)
    event.refresh_from_db()
    assert event.debrief_step == DebriefStep.QUESTION
    assert event.debrief_question_id == of_stage(event, Stage.COPING)[0].pk


def test_a_question_gone_by_other_means_leaves_the_console_a_way_on(organizer):
    event = debriefed(organizer)
    shown = of_stage(event, Stage.FEELINGS)[0]
    show_question(event=event, question_id=shown.pk)
    DebriefQuestion.objects.filter(pk=shown.pk).delete()  # the admin, say
    event.refresh_from_db()
    progress = debrief_progress(event)
    assert (progress.shown, progress.previous) == (None, None)
    assert progress.next.step == DebriefStep.OPENING


def test_the_paths_highlight_takes_only_its_choices(organizer):
    event = debriefed(organizer)
    assert set_paths_highlight(event=event, highlight="climbers").paths_highlight == "climbers"
    with pytest.raises(Refused):
        set_paths_highlight(event=event, highlight="7")
    assert Event.objects.get(pk=event.pk).paths_highlight == "climbers"
