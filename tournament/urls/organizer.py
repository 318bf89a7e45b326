"""URLs of the organizer console (signed in, on the laptop), under /console/.

Terms:
    event prefix  `<int:pk>/`: every page and action about one event sits under it, written
                  once at the bottom. Each feature's list below holds the rest of its paths,
                  and its views are the feature's module in tournament.views.organizer
                  (whose event_view turns the pk into the event).

The table kit's URLs (/console/kit/) are tournament.urls.kit.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.forms import SignInForm
from tournament.views import auth
from tournament.views.organizer import (
    console,
    debrief,
    debrief_answers,
    events,
    games,
    notes,
    paper,
    plan,
    questions,
    radar,
    records,
    room,
    roster,
    rounds,
    screens,
    server,
    tables,
    team,
    video_rooms,
)

app_name = "organizer"

EVENT = "<int:pk>/"

console_urls = [
    path("", console.event_console, name="event"),
    path("live/", console.event_live, name="event_live"),
]

events_urls = [
    path("settings/", events.event_settings, name="event_settings"),
    path("delete/", events.event_delete, name="event_delete"),
    path("archive/", events.event_archive, name="event_archive"),
    path("finish/", events.finish, name="finish"),
    path("reopen/", events.reopen, name="reopen"),
]

room_urls = [
    path("room/address/", room.room_address, name="room_address"),
    path("room/hotspot/", room.room_hotspot, name="room_hotspot"),
]

team_urls = [
    path("team/", team.team_page, name="team"),
    path("team/invite/", team.team_invite, name="team_invite"),
    path("team/<int:invitation_id>/revoke/", team.team_revoke, name="team_revoke"),
]

radar_urls = [
    path("radar/", radar.radar_panel, name="radar"),
    path("radar/settings/", radar.radar_settings, name="radar_settings"),
]

notes_urls = [
    path("notes/", notes.notes_page, name="notes"),
    path("notes/add/", notes.note_add, name="note_add"),
    path("notes/<int:note_id>/", notes.note_edit, name="note_edit"),
    path("notes/<int:note_id>/delete/", notes.note_delete, name="note_delete"),
    path("notes/<int:note_id>/choose/", notes.note_choose, name="note_choose"),
]

roster_urls = [
    path("roster/", roster.roster_add, name="roster_add"),
    path("players/<int:player_id>/", roster.player_page, name="player"),
    path("players/<int:player_id>/rename/", roster.player_rename, name="player_rename"),
    path("players/<int:player_id>/status/", roster.player_status, name="player_status"),
    path("players/<int:player_id>/remove/", roster.player_remove, name="player_remove"),
    path("players/<int:player_id>/new-link/", roster.player_new_link, name="player_new_link"),
]

plan_urls = [
    path("plan/", plan.plan_tables, name="plan_tables"),
    path("plan/reshuffle/", plan.plan_reshuffle, name="plan_reshuffle"),
    path("plan/move/", plan.plan_move, name="plan_move"),
    path("variants/redraw/", plan.variants_redraw, name="variants_redraw"),
    path("variants/classic/", plan.variants_classic, name="variants_classic"),
    path("variants/table/", plan.table_variant, name="table_variant"),
]

tables_urls = [
    path("tables/<int:number>/", tables.table_view, name="table"),
    path("tables/<int:number>/live/", tables.table_live, name="table_live"),
    path("tables/<int:number>/rotate-link/", tables.table_rotate_link, name="table_rotate_link"),
    path(
        "tables/<int:number>/sheet-language/",
        tables.table_sheet_language,
        name="table_sheet_language",
    ),
]

# A screen table's organizer actions, and the players' personal links (cards on screens).
screens_urls = [
    path("tables/<int:number>/settle-trick/", screens.screen_settle, name="screen_settle"),
    path("tables/<int:number>/play-for/", screens.screen_play_for, name="screen_play_for"),
    path(
        "tables/<int:number>/end-game/<int:deal>/",
        screens.screen_end_game,
        name="screen_end_game",
    ),
    path(
        "tables/<int:number>/give-game/<int:deal>/",
        screens.screen_give_game,
        name="screen_give_game",
    ),
    path("players/links/", screens.player_links, name="player_links"),
    path("video-rooms/", video_rooms.video_rooms, name="video_rooms"),
    path("video-rooms/save/", video_rooms.video_rooms_save, name="video_rooms_save"),
]

games_urls = [
    path("tables/<int:number>/games/", games.game_add, name="game_add"),
    path("games/<int:game_id>/settle/", games.game_settle, name="game_settle"),
    path("games/<int:game_id>/delete/", games.game_delete, name="game_delete"),
    path("late/<int:report_id>/accept/", games.report_accept, name="report_accept"),
    path("late/<int:report_id>/drop/", games.report_drop, name="report_drop"),
    path("corrections/", games.corrections_log, name="corrections"),
]

paper_urls = [
    path(
        "tables/<int:number>/rounds/<int:round_number>/paper/",
        paper.paper_entry,
        name="paper_entry",
    ),
    path(
        "tables/<int:number>/rounds/<int:round_number>/paper/save/",
        paper.paper_save,
        name="paper_save",
    ),
]

rounds_urls = [
    path("phase/next/", rounds.phase_next, name="phase_next"),
    path("clock/<slug:action>/", rounds.clock, name="clock"),
    path("rounds/<int:number>/close/", rounds.close_round_page, name="close_round"),
    path("rounds/<int:number>/close/live/", rounds.close_round_live, name="close_round_live"),
    path("undo-close/", rounds.undo_close, name="undo_close"),
]

debrief_urls = [
    path("debrief/", debrief.debrief, name="debrief"),
    path("debrief/step/", debrief.debrief_step, name="debrief_step"),
    path("debrief/highlight/", debrief.debrief_highlight, name="debrief_highlight"),
    path("reveal/", debrief.reveal, name="reveal"),
    path("reveal/table/", debrief.reveal_one_table, name="reveal_table"),
    path("report/", debrief.event_report, name="debrief_report"),
    path("debrief/tricks/", debrief.debrief_tricks, name="debrief_tricks"),
    path("debrief/answers/reveal/", debrief_answers.answers_reveal, name="answers_reveal"),
    path("debrief/answers/close/", debrief_answers.answers_close, name="answers_close"),
    path("debrief/answers/hide/", debrief_answers.answers_hide_word, name="answers_hide_word"),
]

questions_urls = [
    path("debrief/questions/", questions.questions_page, name="debrief_questions"),
    path("debrief/questions/add/", questions.question_add, name="debrief_question_add"),
    path("debrief/questions/reset/", questions.questions_reset, name="debrief_questions_reset"),
    path(
        "debrief/questions/<int:question_id>/",
        questions.question_edit,
        name="debrief_question_edit",
    ),
    path(
        "debrief/questions/<int:question_id>/move/",
        questions.question_move,
        name="debrief_question_move",
    ),
    path(
        "debrief/questions/<int:question_id>/delete/",
        questions.question_delete,
        name="debrief_question_delete",
    ),
    path(
        "debrief/questions/<int:question_id>/answers/",
        debrief_answers.answer_kind,
        name="debrief_question_answers",
    ),
]

# Downloads and backups.
records_urls = [
    path("records/event.json", records.event_json, name="event_json"),
    path("records/results.csv", records.event_results_csv, name="results_csv"),
    path("records/notes.csv", records.event_notes_csv, name="notes_csv"),
    path("records/tricks.csv", records.event_tricks_csv, name="tricks_csv"),
    path("records/tricks.svg", records.event_tricks_svg, name="tricks_svg"),
    path("records/answers.csv", records.event_answers_csv, name="answers_csv"),
    path("records/back-up/", records.back_up_now, name="back_up_now"),
]

FEATURES = [
    console_urls,
    events_urls,
    room_urls,
    team_urls,
    radar_urls,
    notes_urls,
    roster_urls,
    plan_urls,
    tables_urls,
    screens_urls,
    games_urls,
    paper_urls,
    rounds_urls,
    debrief_urls,
    questions_urls,
    records_urls,
]

urlpatterns = [
    path("sign-in/", auth_views.LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("sign-out/", auth_views.LogoutView.as_view(), name="logout"),
    path("sign-in/<uidb64>/<token>/", auth.sign_in_link, name="sign_in_link"),
    path("join/<str:token>/", team.join, name="join"),
    path("", events.event_list, name="events"),
    path("new/", events.event_new, name="event_new"),
    # The laptop's own server, from its console (tournament.views.organizer.server).
    path("server/stop/", server.stop_server_confirm, name="server_stop_confirm"),
    path("server/stop/now/", server.stop_server, name="server_stop"),
    *(path(EVENT, include(feature)) for feature in FEATURES),
]
