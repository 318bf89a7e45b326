"""URLs of the projector screen (read-only, secret link, no sign-in)."""

app_name = "projector"

urlpatterns: list = []
