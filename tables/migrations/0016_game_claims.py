"""Each player's pointing at who won a screen table's game (tables.models.screen_play.GameClaim),
at an event with a scoring clause: the game is recorded once the table agrees."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0015_screen_sighting"),
        ("tournament", "0025_event_video_secret"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameClaim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("taken", models.PositiveSmallIntegerField()),
                ("claimed_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("client_key", models.CharField(max_length=64, unique=True)),
                (
                    "deal",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="claims",
                        to="tables.deal",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournament.player",
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournament.player",
                    ),
                ),
            ],
            options={
                "verbose_name": "game claim",
                "verbose_name_plural": "game claims",
                "ordering": ["deal", "pk"],
            },
        ),
    ]
