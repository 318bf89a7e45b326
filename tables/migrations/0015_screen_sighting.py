"""Each player's screen sighting (tables.models.screen_play.ScreenSighting): when any screen
of theirs last showed up, which tells a player who is there from one who is gone, whether
or not that screen holds the seat."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0014_screen_game_tricks_by_id"),
        ("tournament", "0024_debrief_tricks_step"),
    ]

    operations = [
        migrations.CreateModel(
            name="ScreenSighting",
            fields=[
                (
                    "player",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="screen_sighting",
                        serialize=False,
                        to="tournament.player",
                    ),
                ),
                ("last_seen", models.DateTimeField()),
            ],
            options={
                "verbose_name": "screen sighting",
                "verbose_name_plural": "screen sightings",
            },
        ),
    ]
