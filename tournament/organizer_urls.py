"""URLs of the organizer console (signed in, on the laptop)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournament.forms import SignInForm
from tournament.views import (
    auth,
    debrief_report,
    organizer,
    organizer_actions,
    organizer_console,
    organizer_notes,
    organizer_paper,
    organizer_questions,
    organizer_radar,
    organizer_team,
    records,
)

app_name = "organizer"

event = "<int:pk>/"

urlpatterns = [
    path("sign-in/", auth_views.LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("sign-out/", auth_views.LogoutView.as_view(), name="logout"),
    path("sign-in/<uidb64>/<token>/", auth.sign_in_link, name="sign_in_link"),
    path("join/<str:token>/", organizer_team.join, name="join"),
    path("", organizer.event_list, name="events"),
    path("new/", organizer.event_new, name="event_new"),
    path(event, organizer_console.event_console, name="event"),
    path(f"{event}live/", organizer_console.event_live, name="event_live"),
    path(f"{event}settings/", organizer.event_settings, name="event_settings"),
    path(f"{event}delete/", organizer.event_delete, name="event_delete"),
    path(f"{event}archive/", organizer.event_archive, name="event_archive"),
    path(f"{event}team/", organizer_team.team_page, name="team"),
    path(f"{event}team/invite/", organizer_team.team_invite, name="team_invite"),
    path(
        f"{event}team/<int:invitation_id>/revoke/",
        organizer_team.team_revoke,
        name="team_revoke",
    ),
    path(f"{event}radar/", organizer_radar.radar_panel, name="radar"),
    path(f"{event}radar/settings/", organizer_radar.radar_settings, name="radar_settings"),
    path(f"{event}notes/", organizer_notes.notes_page, name="notes"),
    path(f"{event}notes/add/", organizer_notes.note_add, name="note_add"),
    path(f"{event}notes/<int:note_id>/", organizer_notes.note_edit, name="note_edit"),
    path(f"{event}notes/<int:note_id>/delete/", organizer_notes.note_delete, name="note_delete"),
    path(f"{event}notes/<int:note_id>/choose/", organizer_notes.note_choose, name="note_choose"),
    path(f"{event}finish/", organizer_actions.finish, name="finish"),
    path(f"{event}reopen/", organizer_actions.reopen, name="reopen"),
    path(f"{event}report/", debrief_report.event_report, name="debrief_report"),
    # roster
    path(f"{event}roster/", organizer_actions.roster_add, name="roster_add"),
    path(f"{event}players/<int:player_id>/", organizer_console.player_page, name="player"),
    path(
        f"{event}players/<int:player_id>/rename/",
        organizer_actions.player_rename,
        name="player_rename",
    ),
    path(
        f"{event}players/<int:player_id>/status/",
        organizer_actions.player_status,
        name="player_status",
    ),
    path(
        f"{event}players/<int:player_id>/remove/",
        organizer_actions.player_remove,
        name="player_remove",
    ),
    # table plan and variants
    path(f"{event}plan/", organizer_actions.plan_tables, name="plan_tables"),
    path(f"{event}plan/reshuffle/", organizer_actions.plan_reshuffle, name="plan_reshuffle"),
    path(f"{event}plan/move/", organizer_actions.plan_move, name="plan_move"),
    path(f"{event}variants/redraw/", organizer_actions.variants_redraw, name="variants_redraw"),
    path(f"{event}variants/classic/", organizer_actions.variants_classic, name="variants_classic"),
    path(f"{event}variants/table/", organizer_actions.table_variant, name="table_variant"),
    # tables and games
    path(f"{event}tables/<int:number>/", organizer_console.table_view, name="table"),
    path(f"{event}tables/<int:number>/live/", organizer_console.table_live, name="table_live"),
    path(
        f"{event}tables/<int:number>/rotate-link/",
        organizer_actions.table_rotate_link,
        name="table_rotate_link",
    ),
    path(
        f"{event}tables/<int:number>/sheet-language/",
        organizer_actions.table_sheet_language,
        name="table_sheet_language",
    ),
    path(f"{event}tables/<int:number>/games/", organizer_actions.game_add, name="game_add"),
    path(
        f"{event}tables/<int:number>/rounds/<int:round_number>/paper/",
        organizer_paper.paper_entry,
        name="paper_entry",
    ),
    path(
        f"{event}tables/<int:number>/rounds/<int:round_number>/paper/save/",
        organizer_paper.paper_save,
        name="paper_save",
    ),
    path(f"{event}games/<int:game_id>/settle/", organizer_actions.game_settle, name="game_settle"),
    path(f"{event}games/<int:game_id>/delete/", organizer_actions.game_delete, name="game_delete"),
    path(
        f"{event}late/<int:report_id>/accept/",
        organizer_actions.report_accept,
        name="report_accept",
    ),
    path(f"{event}late/<int:report_id>/drop/", organizer_actions.report_drop, name="report_drop"),
    path(f"{event}corrections/", organizer_console.corrections_log, name="corrections"),
    # phases, clock, rounds
    path(f"{event}phase/next/", organizer_actions.phase_next, name="phase_next"),
    path(f"{event}clock/<slug:action>/", organizer_actions.clock, name="clock"),
    path(f"{event}debrief/", organizer_actions.debrief, name="debrief"),
    path(f"{event}reveal/", organizer_actions.reveal, name="reveal"),
    path(f"{event}reveal/table/", organizer_actions.reveal_one_table, name="reveal_table"),
    path(f"{event}debrief/step/", organizer_actions.debrief_step, name="debrief_step"),
    path(
        f"{event}debrief/highlight/",
        organizer_actions.debrief_highlight,
        name="debrief_highlight",
    ),
    # debrief questions
    path(
        f"{event}debrief/questions/",
        organizer_questions.questions_page,
        name="debrief_questions",
    ),
    path(
        f"{event}debrief/questions/add/",
        organizer_questions.question_add,
        name="debrief_question_add",
    ),
    path(
        f"{event}debrief/questions/reset/",
        organizer_questions.questions_reset,
        name="debrief_questions_reset",
    ),
    path(
        f"{event}debrief/questions/<int:question_id>/",
        organizer_questions.question_edit,
        name="debrief_question_edit",
    ),
    path(
        f"{event}debrief/questions/<int:question_id>/move/",
        organizer_questions.question_move,
        name="debrief_question_move",
    ),
    path(
        f"{event}debrief/questions/<int:question_id>/delete/",
        organizer_questions.question_delete,
        name="debrief_question_delete",
    ),
    path(
        f"{event}rounds/<int:number>/close/",
        organizer_actions.close_round_page,
        name="close_round",
    ),
    path(
        f"{event}rounds/<int:number>/close/live/",
        organizer_console.close_round_live,
        name="close_round_live",
    ),
    path(f"{event}undo-close/", organizer_actions.undo_close, name="undo_close"),
    # records: downloads and backups
    path(f"{event}records/event.json", records.event_json, name="event_json"),
    path(f"{event}records/results.csv", records.event_results_csv, name="results_csv"),
    path(f"{event}records/notes.csv", records.event_notes_csv, name="notes_csv"),
    path(f"{event}records/back-up/", records.back_up_now, name="back_up_now"),
]
