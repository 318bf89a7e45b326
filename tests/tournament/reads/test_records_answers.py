"""The room's answers in the records: the JSON record (round trip, older records), the CSV
and the printable report, all anonymous."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from tables.writes.debrief_answers import answer_question
from tests import factories
from tournament.models import DebriefAnswer, DebriefQuestion
from tournament.reads.debrief_report import build_report
from tournament.reads.records import answers_csv, export_event
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_answers import hide_word
from tournament.writes.debrief_bank import show_question
from tournament.writes.record_import import RecordProblem, import_event

pytestmark = pytest.mark.django_db


def answered_event(organizer):
    """An event at its debrief whose room answered the words and the scale questions."""
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    event = factories.play_until(event, "debrief", by=organizer)
    answers = {AnswerKind.WORDS: ["Lost", "lost", "curious"], AnswerKind.SCALE: [4, 2]}
    for kind, given in answers.items():
        question = DebriefQuestion.objects.get(event=event, answer_kind=kind)
        show_question(event=event, question_id=question.pk)
        event.refresh_from_db()
        for index, value in enumerate(given):
            answer_question(
                event=event,
                question_id=question.pk,
                phone=f"phone{index:017d}",
                **({"text": value} if kind == AnswerKind.WORDS else {"number": value}),
            )
    words = DebriefQuestion.objects.get(event=event, answer_kind=AnswerKind.WORDS)
    hide_word(event=event, question_id=words.pk, word="curious", hidden=True)
    return event


def through_json(record: dict) -> dict:
    return json.loads(json.dumps(record, ensure_ascii=False))


def question_of(record: dict, kind: str) -> dict:
    return next(q for q in record["debrief"]["questions"] if q["answer_kind"] == kind)


def test_the_record_holds_the_answers_and_no_phone_id(organizer):
    record = export_event(answered_event(organizer))
    words = question_of(record, "words")
    assert words["answers"] == [
        {"text": "Lost", "number": None},
        {"text": "curious", "number": None},
        {"text": "lost", "number": None},
    ]
    assert words["hidden_words"]
    assert words["answers_open"]
    assert not words["answers_revealed"]
    assert [a["number"] for a in question_of(record, "scale")["answers"]] == [2, 4]
    assert "phone0" not in json.dumps(record)


def test_the_answers_round_trip(organizer):
    first = export_event(answered_event(organizer))
    imported = import_event(record=through_json(first), owner=organizer).event
    again = export_event(imported)
    assert again["debrief"] == first["debrief"]
    assert DebriefAnswer.objects.filter(question__event=imported).count() == 5


def test_a_record_from_before_the_answers_imports_without_them(organizer):
    record = export_event(answered_event(organizer))
    for question in record["debrief"]["questions"]:
        for key in ("answer_kind", "answers_open", "answers_revealed", "hidden_words", "answers"):
            del question[key]
    imported = import_event(record=through_json(record), owner=organizer).event
    questions = DebriefQuestion.objects.filter(event=imported)
    assert not questions.exclude(answer_kind="").exists()
    assert not DebriefAnswer.objects.filter(question__event=imported).exists()


def test_an_answer_without_a_word_is_refused_with_its_place(organizer):
    record = export_event(answered_event(organizer))
    question_of(record, "words")["answers"][0]["text"] = " "
    with pytest.raises(RecordProblem, match=r"answers\[0\]\.text: must not be empty"):
        import_event(record=through_json(record), owner=organizer)


def test_the_csv_holds_question_kind_and_answer_only(organizer):
    event = answered_event(organizer)
    rows = list(csv.reader(io.StringIO(answers_csv(export_event(event)).lstrip("\ufeff"))))
    assert rows[0] == ["question", "kind", "answer"]
    assert all(len(row) == 3 for row in rows)
    assert sorted(row[2] for row in rows[1:]) == ["2", "4", "Lost", "curious", "lost"]


def test_the_csv_download(signed_in, organizer):
    event = answered_event(organizer)
    response = signed_in.get(reverse("organizer:answers_csv", args=[event.pk]))
    assert response.status_code == 200
    assert "answers.csv" in response["Content-Disposition"]


def test_the_report_shows_the_answers_without_the_hidden_words(organizer, signed_in):
    event = answered_event(organizer)
    results = build_report(event).answers
    assert [r.tally.count for r in results] == [3, 2]
    page = signed_in.get(reverse("organizer:debrief_report", args=[event.pk])).content.decode()
    assert "The room's answers" in page or "The room&#x27;s answers" in page
    assert "1 answer hidden by the organizer is left out" in page
