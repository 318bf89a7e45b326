"""URLs that phones open: a table's page (from its QR code) and a player's own page.

Every URL carries a secret token (a table's, or the event's players_token); there is no
sign-in. The player URLs come first so that "me" and "p" are never read as a table token.
"""

from django.urls import path

from tables.views import answers, phone, player, screen, silent_channel, tricks

app_name = "phone"

urlpatterns = [
    path("me/<str:players_token>/", player.player_home, name="player_home"),
    path("me/<str:players_token>/live/", player.player_live, name="player_live"),
    path("me/<str:players_token>/pick/", player.pick_player, name="player_pick"),
    path("me/<str:players_token>/names/", player.player_names, name="player_names"),
    path("me/<str:players_token>/language/", player.choose_language, name="player_language"),
    path("me/<str:players_token>/answer/", answers.answer_page, name="answer_page"),
    path("me/<str:players_token>/answer/send/", answers.player_answer, name="player_answer"),
    path("p/<str:token>/", screen.screen_home, name="screen"),
    path("p/<str:token>/live/", screen.screen_live, name="screen_live"),
    path("p/<str:token>/play/", screen.play, name="screen_play"),
    path("p/<str:token>/point/", screen.point, name="screen_point"),
    path("p/<str:token>/claim/", screen.claim, name="screen_claim"),
    path("p/<str:token>/draw/", silent_channel.draw, name="screen_draw"),
    path("p/<str:token>/gesture/", silent_channel.gesture, name="screen_gesture"),
    path("p/<str:token>/language/", screen.choose_language, name="screen_language"),
    path("p/<str:token>/take/", screen.take_seat, name="screen_take"),
    path("p/<str:token>/free/", screen.let_go_of_seat, name="screen_free"),
    path("p/<str:token>/answer/", answers.screen_answer, name="screen_answer"),
    # The stream's one path: under ASGI the live channel serves it (tournament.serving
    # .live_channel.stream_path reads it here); this view answers only elsewhere.
    path("p/<str:token>/stream/", screen.no_stream, name="screen_stream"),
    path("<str:token>/", phone.table_page, name="table"),
    path("<str:token>/answer/", answers.table_answer, name="table_answer"),
    path("<str:token>/language/", phone.choose_language, name="language"),
    path("<str:token>/live/", phone.table_live, name="table_live"),
    path("<str:token>/report/", phone.report_winner, name="report"),
    path("<str:token>/tricks/", tricks.report_tricks, name="tricks"),
]
