"""What a phone's report costs the server against the phone page, in-process: CPU time.

Terms:
    page      GET /t/<token>/ from a phone never seen (no cookie), as wrk sends it.
    report    POST /t/<token>/report/ with htmx, the winner of the next game, from that
              phone with the page's form fields: the write and the live part it answers.
    live      GET /t/<token>/live/ with htmx and no ETag: the live part rendered.
    CPU time  time.process_time() around each request through Django's test client (no
              network), median over --reports, each at the next table: on a machine
              shared with other work it moves far less than wall time does.

make bench asks that report_rps (page + POST) be at least half of page_rps: a report may
cost no more than a page. Usage: .venv/bin/python bench/report_cost.py [--players 500]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time

from _setup import setup_django
from live_room import prepare_event

os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")  # Django's test client
FORM_FIELD = re.compile(r'name="(client_key|game_number|round_number)" value="([^"]*)"')
HTMX = {"HTTP_HX_REQUEST": "true"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--reports", type=int, default=150)
    args = parser.parse_args()
    setup_django()
    from django.test import Client

    _event, tables, seated = prepare_event(args.players)
    client = Client()
    cpu: dict[str, list[float]] = {"page": [], "report": [], "live": []}
    for i in range(args.reports):
        table = tables[i % len(tables)]
        client.cookies.clear()  # a new phone each time: never a double tap, never held
        start = time.process_time()
        html = client.get(f"/t/{table.token}/").content.decode()
        cpu["page"].append(time.process_time() - start)
        fields = dict(FORM_FIELD.findall(html))
        start = time.process_time()
        answer = client.post(
            f"/t/{table.token}/report/", {**fields, "winner": seated[table.token][0]}, **HTMX
        )
        cpu["report"].append(time.process_time() - start)
        if b"notice-error" in answer.content:
            raise RuntimeError(f"a report was refused: {answer.content.decode()[:500]}")
        start = time.process_time()
        client.get(f"/t/{table.token}/live/", **HTMX)
        cpu["live"].append(time.process_time() - start)
    medians = {kind: statistics.median(times) * 1000 for kind, times in cpu.items()}
    print(
        f"{args.players} players, {args.reports} reports, CPU time per request (median): "
        + "  ".join(f"{kind} {ms:.2f} ms" for kind, ms in medians.items())
        + f"  report/page {medians['report'] / medians['page']:.2f}"
    )


if __name__ == "__main__":
    main()
