"""A game counted at a screen table kept its tricks by player name; every other game keeps
them by player id (tables.models.Game.tricks), and the screens that read them by id showed
none. Rewrite those games' tricks by id."""

from django.db import migrations


def tricks_by_id(apps, schema_editor):
    Deal = apps.get_model("tables", "Deal")
    Player = apps.get_model("tournament", "Player")
    for deal in Deal.objects.filter(game__isnull=False).select_related("game", "round"):
        game = deal.game
        if not isinstance(game.tricks, dict):
            continue
        ids = dict(
            Player.objects.filter(event_id=deal.round.event_id, pk__in=deal.seats).values_list(
                "name", "pk"
            )
        )
        if set(game.tricks) <= {str(player) for player in deal.seats}:
            continue  # kept by id already (a name made of digits is still a name)
        game.tricks = {str(ids.get(key, key)): count for key, count in game.tricks.items()}
        game.save(update_fields=["tricks"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0013_silent_channel")]

    operations = [migrations.RunPython(tricks_by_id, migrations.RunPython.noop)]
