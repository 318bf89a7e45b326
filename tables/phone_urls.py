"""URLs that phones open: a table's page (from its QR code) and a player's own page."""

app_name = "phone"

urlpatterns: list = []
