"""Events, players, rounds and seats: the tournament's models, one module for each.

Terms:
    event    one tournament run by one organizer: a roster, tables, phases and rounds
             (event; where it stands: phases; its countdown: tournament.rules.clock).
    round    a timed period of play, numbered 1..N: planned, open, then closed (rounds).
    player   one person on an event's roster (players).
    seat     who sits at which table in which round, and why (seats).
    debrief question
             one question of the event's own debrief bank (debrief).
    co-facilitator
             someone the organizer invited to help run one event (cofacilitators); what
             they saw at the tables are observers' notes (notes).
    room settings
             the installation's network settings: the address the QR codes use and the
             hotspot's Wi-Fi (room).
    sign-in attempt
             a password sign-in that has not succeeded, counted to slow down guessing
             (signin).
    stored backup
             an event's JSON record kept in the database at a moment, on PostgreSQL
             (backups; why: tournament.writes.backups).
    token / seed
             the secrets and the random seed a new row is born with (tokens).

Import from here (``from tournament.models import Event``): every name other code or the
migrations use (``tournament.models.new_secret_token``) is re-exported, whichever module
defines it.
"""

from tournament.models.backups import StoredBackup, StoredBackupQuerySet
from tournament.models.cofacilitators import (
    COFACILITATOR_NAME_MAX_LENGTH,
    CoFacilitator,
    CoFacilitatorQuerySet,
    CoRole,
    accounts_named,
    record_name,
    shown_name,
)
from tournament.models.debrief import (
    ANSWER_KIND_CHOICES,
    STAGE_CHOICES,
    DebriefAnswer,
    DebriefQuestion,
    DebriefQuestionQuerySet,
)
from tournament.models.event import CardsOn, DifferenceSetChoice, Event, EventQuerySet
from tournament.models.notes import NOTE_TEXT_MAX_LENGTH, NoteTag, ObserverNote
from tournament.models.phases import (
    CLOCKED_PHASES,
    PHASE_TITLES,
    SCREEN_EVENT_STEPS,
    SCREENS_BEFORE_STAGE,
    DebriefStep,
    PathsHighlight,
    Phase,
    screens_before_stage,
)
from tournament.models.players import (
    EVENT_MAX_PLAYERS,
    PLAYER_NAME_MAX_LENGTH,
    Player,
    PlayerQuerySet,
    PlayerStatus,
)
from tournament.models.room import (
    WIFI_NAME_MAX_LENGTH,
    WIFI_PASSWORD_MAX_LENGTH,
    RoomSettings,
    RoomSettingsQuerySet,
    WifiSecurity,
)
from tournament.models.rounds import Round, RoundStatus
from tournament.models.seats import Seat, SeatReason, reason_label
from tournament.models.signin import SignInAttempt, SignInAttemptQuerySet
from tournament.models.tokens import (
    SECRET_TOKEN_BYTES,
    TOKEN_PATTERN,
    looks_like_token,
    new_secret_token,
    new_seed,
    new_video_secret,
)

__all__ = [
    "ANSWER_KIND_CHOICES",
    "CLOCKED_PHASES",
    "COFACILITATOR_NAME_MAX_LENGTH",
    "EVENT_MAX_PLAYERS",
    "NOTE_TEXT_MAX_LENGTH",
    "PHASE_TITLES",
    "PLAYER_NAME_MAX_LENGTH",
    "SCREENS_BEFORE_STAGE",
    "SCREEN_EVENT_STEPS",
    "SECRET_TOKEN_BYTES",
    "STAGE_CHOICES",
    "TOKEN_PATTERN",
    "WIFI_NAME_MAX_LENGTH",
    "WIFI_PASSWORD_MAX_LENGTH",
    "CardsOn",
    "CoFacilitator",
    "CoFacilitatorQuerySet",
    "CoRole",
    "DebriefAnswer",
    "DebriefQuestion",
    "DebriefQuestionQuerySet",
    "DebriefStep",
    "DifferenceSetChoice",
    "Event",
    "EventQuerySet",
    "NoteTag",
    "ObserverNote",
    "PathsHighlight",
    "Phase",
    "Player",
    "PlayerQuerySet",
    "PlayerStatus",
    "RoomSettings",
    "RoomSettingsQuerySet",
    "Round",
    "RoundStatus",
    "Seat",
    "SeatReason",
    "SignInAttempt",
    "SignInAttemptQuerySet",
    "StoredBackup",
    "StoredBackupQuerySet",
    "WifiSecurity",
    "accounts_named",
    "looks_like_token",
    "new_secret_token",
    "new_seed",
    "new_video_secret",
    "reason_label",
    "record_name",
    "screens_before_stage",
    "shown_name",
]
