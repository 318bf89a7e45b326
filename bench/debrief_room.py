"""The debrief's answers under load: the whole room answers one question from its phones
while the projectors poll, against the real server (`manage.py serve`), to see that every
answer is stored once and reaches the projector in time.

Terms:
    phone      a virtual phone with its own ``ft_phone`` id, posting one answer (htmx, as
               the page's form does) to the players' link, once, at a moment spread evenly
               over the answering window.
    projector  a virtual projector polling its stage every interval with its last ETag.
    answer to projector
               from an answer's POST answered until a projector's first poll sent after it
               has come back: what the room waits to see its answer counted.
    stored     the answers in the database once the run is over, counted: each phone's
               once, whatever retries or doubles happened.

Goal (issue 25): 500 phones within 30 s, every answer stored once, each on the projector
within 2 s. It sends traffic only to 127.0.0.1. Usage:
    .venv/bin/python bench/debrief_room.py --players 500 --seconds 30
compare.py calls run_debrief after its live room, on the same event.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from dataclasses import dataclass, field

from _client import FAILURES, Connection, percentile
from _setup import free_port, running_server, setup_django

HTMX = {"HX-Request": "true"}
WORDS = ("lost", "curious", "Frustrated", "confused", "amused", "lost ", "alone", "LOST")
REFUSED = b"notice notice-error"


def prepare_debrief(event):
    """The event at its debrief, the projector on the words question, answers revealed:
    the heaviest stage (the cloud is drawn at every change). Returns (event, question)."""
    from tournament.models import DebriefQuestion, Phase
    from tournament.rules.debrief_questions import AnswerKind
    from tournament.writes.debrief_answers import reveal_answers
    from tournament.writes.debrief_bank import show_question
    from tournament.writes.rounds import close_round, start_debrief

    event.refresh_from_db()
    if event.phase == Phase.ROUND:
        close_round(round_=event.current_round, by=None)
        event.refresh_from_db()
    if event.phase != Phase.DEBRIEF:
        event = start_debrief(event=event)
    question = DebriefQuestion.objects.filter(event=event, answer_kind=AnswerKind.WORDS).first()
    show_question(event=event, question_id=question.pk)
    reveal_answers(event=event, question_id=question.pk, revealed=True)
    event.refresh_from_db()
    return event, question


def stored_answers(question) -> tuple[int, int]:
    """(answers stored, distinct phones among them) for the question."""
    from tournament.models import DebriefAnswer

    answers = DebriefAnswer.objects.filter(question=question)
    return answers.count(), answers.values("phone").distinct().count()


@dataclass
class Debrief:
    """What one answering room measured."""

    seconds: float = 0.0
    posts: list[float] = field(default_factory=list)  # each answer's POST latency
    answers: list[float] = field(default_factory=list)  # when each answer's POST came back
    projector_polls: list[list[tuple[float, float]]] = field(default_factory=list)
    projector_samples: list[float] = field(default_factory=list)
    errors: int = 0
    stored: int = 0
    phones: int = 0

    def answer_to_projector(self) -> list[float]:
        waits = []
        for answered in self.answers:
            for polls in self.projector_polls:
                seen = next((end for sent, end in polls if sent >= answered), None)
                if seen is not None:
                    waits.append(seen - answered)
        return waits

    def summary(self) -> dict[str, float]:
        waits = self.answer_to_projector()
        return {
            "debrief_phones": self.phones,
            "debrief_answers_stored": self.stored,
            "debrief_answer_errors": self.errors,
            "debrief_answer_seconds": round(self.seconds, 1),
            "debrief_answer_p50_ms": round(percentile(self.posts, 0.50) * 1000, 1),
            "debrief_answer_p99_ms": round(percentile(self.posts, 0.99) * 1000, 1),
            "debrief_projector_p99_ms": round(percentile(self.projector_samples, 0.99) * 1000, 1),
            "debrief_answer_to_projector_p99_s": round(percentile(waits, 0.99), 2),
            "debrief_answer_to_projector_max_s": round(max(waits, default=0.0), 2),
        }


async def _answer_once(port: int, path: str, question_id: int, index: int) -> tuple[bool, float]:
    from tournament.common.phone_ids import signed_phone_id

    connection = Connection("127.0.0.1", port)
    # Signed, as the page gives it (tournament.common.phone_ids: signed): an id the server did
    # not sign is refused, as from a phone that did not keep its cookie.
    phone = signed_phone_id(secrets.token_urlsafe(16))
    word = WORDS[index % len(WORDS)]
    body = f"question={question_id}&text={word}".encode()
    headers = {
        **HTMX,
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"ft_phone={phone}",
    }
    began = time.perf_counter()
    try:
        answer = await connection.request("POST", path, headers, body)
    finally:
        await connection.close()
    return answer.status == 200 and REFUSED not in answer.body, time.perf_counter() - began


async def run_debrief(
    port: int,
    event,
    question,
    *,
    phones: int = 500,
    seconds: float = 30,
    projectors: int = 3,
    poll_seconds: float | None = None,
) -> Debrief:
    """Every phone answers once within ``seconds`` while the projectors poll."""
    from tournament.common.polling import POLL_INTERVAL_SECONDS

    interval = POLL_INTERVAL_SECONDS if poll_seconds is None else poll_seconds
    room = Debrief(projector_polls=[[] for _ in range(projectors)], phones=phones)
    start = time.perf_counter()
    window = seconds * 0.9  # every phone has answered before the projectors stop
    stop_at = start + seconds + 2.0  # the projectors poll on, to see the last answers
    path = f"/t/me/{event.players_token}/answer/send/"

    async def projector(polls: list[tuple[float, float]], offset: float) -> None:
        connection = Connection("127.0.0.1", port)
        etag, due = None, start + offset
        try:
            while due < stop_at:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                headers = dict(HTMX, **({"If-None-Match": etag} if etag else {}))
                sent = time.perf_counter()
                try:
                    response = await connection.request(
                        "GET", f"/screen/{event.projector_token}/", headers
                    )
                except FAILURES:
                    room.errors += 1
                else:
                    answered = time.perf_counter()
                    room.projector_samples.append(answered - sent)
                    if response.status not in (200, 304):
                        room.errors += 1
                    etag = response.headers.get("etag", etag)
                    polls.append((sent, answered))
                due = max(due + interval, time.perf_counter())
        finally:
            await connection.close()

    async def phone(index: int) -> None:
        await asyncio.sleep(max(0.0, start + window * index / phones - time.perf_counter()))
        try:
            ok, took = await _answer_once(port, path, question.pk, index)
        except FAILURES:
            ok, took = False, 0.0
        if ok:
            room.posts.append(took)
            room.answers.append(time.perf_counter())
        else:
            room.errors += 1

    tasks = [
        projector(room.projector_polls[i], interval * i / projectors) for i in range(projectors)
    ]
    tasks += [phone(i) for i in range(phones)]
    await asyncio.gather(*tasks)
    room.seconds = max(room.answers, default=start) - start
    return room


def debrief_figures(port: int, event, *, phones: int = 500, seconds: float = 30) -> Debrief:
    """The debrief room on an event (compare.py's live room's): to the debrief, then the
    answers, then the count of what was stored."""
    event, question = prepare_debrief(event)
    room = asyncio.run(run_debrief(port, event, question, phones=phones, seconds=seconds))
    room.stored, distinct = stored_answers(question)
    if distinct != room.stored:
        room.errors += room.stored - distinct
    return room


def print_debrief(room: Debrief) -> None:
    waits = room.answer_to_projector()
    print(
        f"debrief: {room.phones} phones answered in {room.seconds:.1f} s, "
        f"{room.stored} answers stored, {room.errors} errors"
    )
    print(
        f"  answer POST  median {percentile(room.posts, 0.5) * 1000:6.1f} ms"
        f"  p99 {percentile(room.posts, 0.99) * 1000:6.1f} ms"
    )
    print(
        f"  answer to projector  median {percentile(waits, 0.5):.2f} s"
        f"  p99 {percentile(waits, 0.99):.2f} s  max {max(waits, default=0):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    data_dir = setup_django()
    from live_room import prepare_event

    event, _tables, _seated = prepare_event(args.players)
    port = free_port()
    with running_server(data_dir, port):
        room = debrief_figures(port, event, phones=args.players, seconds=args.seconds)
    print_debrief(room)
    print(json.dumps(room.summary()))


if __name__ == "__main__":
    main()
