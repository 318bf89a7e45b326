"""URLs of the printable table kit (organizer, signed in)."""

app_name = "kit"

urlpatterns: list = []
