"""Events whose cards are on screens: the event's choice, the radar's stall setting, and a
personal link for every player (filled for the players that exist, then made unique)."""

import django.core.validators
from django.db import migrations, models

import tournament.models


def give_every_player_a_token(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    players = list(Player.objects.only("pk"))
    for player in players:
        player.token = tournament.models.new_secret_token()
    Player.objects.bulk_update(players, ["token"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0021_debrief_answer_source")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="cards",
            field=models.CharField(
                choices=[("table", "Cards on the table"), ("screens", "Cards on screens")],
                default="table",
                help_text=(
                    "On the table: real cards, and phones report who won. On screens: each "
                    "player plays from their own phone or laptop, for groups that are not "
                    "in one room."
                ),
                max_length=10,
                verbose_name="cards",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="screen_stall_seconds",
            field=models.PositiveSmallIntegerField(
                default=60,
                help_text=(
                    "On screens: a trick whose players point at different cards for this "
                    "long is flagged, and you can settle it."
                ),
                validators=[
                    django.core.validators.MinValueValidator(10),
                    django.core.validators.MaxValueValidator(600),
                ],
                verbose_name="radar: seconds a trick may stay in disagreement",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(give_every_player_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="token",
            field=models.CharField(
                default=tournament.models.new_secret_token, max_length=64, unique=True
            ),
        ),
    ]
