"""URLs of the printable table kit, under /console/kit/ (organizer, signed in, own events
only; views in tournament.views.organizer.kit)."""

from django.urls import path

from tournament.views.organizer import kit

app_name = "kit"

urlpatterns = [
    path("<int:pk>/", kit.event_kit, name="event_kit"),
    path("<int:pk>/tally/", kit.tally_sheets, name="tally_sheets"),
]
