"""URLs of the projector screen (read-only, secret link, no sign-in)."""

from django.urls import path

from tournament.views import projector

app_name = "projector"

urlpatterns = [
    path("<str:token>/", projector.screen, name="screen"),
]
