"""URLs of the printable table kit (organizer, signed in, own events only)."""

from django.urls import path

from tables.views import kit

app_name = "kit"

urlpatterns = [
    path("<int:pk>/", kit.event_kit, name="event_kit"),
    path("<int:pk>/tally/", kit.tally_sheets, name="tally_sheets"),
]
