"""Where a card's time goes, for bench/screen_room.py: from its POST to each other screen
of its table, in stages (tournament.common.stages says what the server measures).

Terms:
    action stages  lock, write, commit: from the play's answer (Server-Timing); request: the
                   rest of the POST's time, seen from the player (waiting for a server
                   thread, the view around the write, the answer and the network).
    push stages    wake (commit to the watcher woken), watch (the versions read), render
                   (the table's state drawn), send (this stream's message written), deliver
                   (written to received by the player): from the pushed state's comment line
                   and the time it came, joined to the play's X-Committed-At.
    figures        ``remote_stage_<name>_p50_ms`` and ``remote_stage_<name>_p99_ms``.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

from _client import percentile

ACTION = ("request", "lock", "write", "commit")
PUSH = ("wake", "watch", "render", "send", "deliver")
TIMING = re.compile(r"(\w+);dur=([\d.]+)")
MARKS = re.compile(rb"(\w+)=([\d.]+)")

Card = tuple[int, int, str]  # table, game, card


@dataclass
class StageLog:
    """What the room saw of each play's stages."""

    spans: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    committed: dict[Card, float] = field(default_factory=dict)
    # (table, game, card) -> each viewer's push marks (woke, read, rendered, sent, received)
    pushes: dict[Card, list[dict[str, float]]] = field(default_factory=lambda: defaultdict(list))

    def answered(self, card: Card, headers: dict, seconds: float) -> None:
        """A play's answer after ``seconds``: its stages and the moment it committed."""
        timing = TIMING.findall(headers.get("server-timing", ""))
        for name, milliseconds in timing:
            self.spans[name].append(float(milliseconds) / 1000)
        if timing:
            inside = sum(float(milliseconds) for _name, milliseconds in timing) / 1000
            self.spans["request"].append(max(0.0, seconds - inside))
        if committed := headers.get("x-committed-at"):
            self.committed[card] = float(committed)

    def pushed(self, card: Card, marks: bytes) -> None:
        """A pushed state first showed ``card`` to a viewer: the push's marks, as received."""
        found = {name.decode(): float(value) for name, value in MARKS.findall(marks)}
        if found:
            self.pushes[card].append({**found, "received": time.time()})

    def summary(self) -> dict[str, float]:
        spans = {name: list(self.spans.get(name, [])) for name in ACTION}
        spans.update({name: [] for name in PUSH})
        for card, pushes in self.pushes.items():
            committed = self.committed.get(card)
            for marks in pushes:
                if committed is not None and marks.get("woke", 0) >= committed - 0.5:
                    spans["wake"].append(max(0.0, marks["woke"] - committed))
                spans["watch"].append(marks["read"] - marks["woke"])
                spans["render"].append(marks["rendered"] - marks["read"])
                spans["send"].append(marks["sent"] - marks["rendered"])
                spans["deliver"].append(marks["received"] - marks["sent"])
        figures = {}
        for name, samples in spans.items():
            figures[f"remote_stage_{name}_p50_ms"] = round(percentile(samples, 0.5) * 1000, 1)
            figures[f"remote_stage_{name}_p99_ms"] = round(percentile(samples, 0.99) * 1000, 1)
        return figures


def print_stages(figures: dict[str, float]) -> None:
    cells = [
        f"{name} {figures[f'remote_stage_{name}_p50_ms']:.1f}/"
        f"{figures[f'remote_stage_{name}_p99_ms']:.1f}"
        for name in (*ACTION, *PUSH)
    ]
    print("  stages, ms p50/p99: " + "  ".join(cells))
