"""What bench/hosted_load.py finds in the database after its run, by client key: the
plays and pointings of its screen events, the reports and games of its room events.

Terms (those of bench/hosted_load.py):
    lost          a key acknowledged but not stored.
    doubled       a key stored more than once (its unique constraint forbids it; counted
                  anyway), a key stored that no client sent, or a game stored at a room
                  table under a number no phone reported: a re-send counted as a new game.
    stored unacknowledged
                  sent, stored, never answered "stored": a POST cut off by the kill whose
                  re-send the run's end cut short. Not lost: no player was told it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from _hosted_clients import Tally


@dataclass
class Stored:
    keys_by_kind: dict[str, set[str]] = field(default_factory=dict)
    repeated_keys: int = 0
    games: int = 0
    confirmed: int = 0
    game_numbers: set[tuple[str, int]] = field(default_factory=set)  # (table token, number)

    def keys(self, kind: str) -> int:
        return len(self.keys_by_kind[kind])

    def lost(self, tally: Tally) -> int:
        return sum(len(tally.acknowledged[kind] - keys) for kind, keys in self.keys_by_kind.items())

    def doubled(self, tally: Tally) -> int:
        unsent = sum(len(keys - tally.sent[kind]) for kind, keys in self.keys_by_kind.items())
        unreported = sum(
            1 for token, number in self.game_numbers if number not in tally.games[token]
        )
        return self.repeated_keys + unsent + unreported

    def unacknowledged(self, tally: Tally) -> int:
        return sum(
            len((keys & tally.sent[kind]) - tally.acknowledged[kind])
            for kind, keys in self.keys_by_kind.items()
        )


def count_stored(screen_events: list, room_events: list) -> Stored:
    """Every key stored for the run's events, and the room tables' games."""
    from tables.models import Game, GameReport, GameStatus, Play, Pointing

    rows = {
        "play": Play.objects.filter(deal__round__event__in=screen_events, by_organizer=False),
        "point": Pointing.objects.filter(deal__round__event__in=screen_events),
        "report": GameReport.objects.filter(table__event__in=room_events),
    }
    stored = Stored()
    for kind, found in rows.items():
        keys = list(found.values_list("client_key", flat=True))
        stored.keys_by_kind[kind] = set(keys)
        stored.repeated_keys += len(keys) - len(set(keys))
    games = Game.objects.filter(table__event__in=room_events)
    for token, number, status in games.values_list("table__token", "number", "status"):
        stored.games += 1
        stored.confirmed += status == GameStatus.CONFIRMED
        stored.game_numbers.add((token, number))
    return stored
