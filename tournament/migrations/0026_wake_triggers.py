"""On PostgreSQL, a write that bumps a version tells every server process (NOTIFY on
tournament.common.wake.CHANNEL), from a trigger: inside the write's transaction, so it is
delivered only if the write commits, with no statement of the write's own. SQLite has no
NOTIFY: its servers look at the database's log (tournament.common.wake, Terms: notice)."""

from django.db import migrations

CHANNEL = "fivetricks_wake"  # tournament.common.wake.CHANNEL, as it was at this migration
WATCHED = (("tables_table", "version"), ("tournament_event", "shared_version"))


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "CREATE OR REPLACE FUNCTION fivetricks_wake() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$"
    )
    for table, column in WATCHED:
        schema_editor.execute(
            f'CREATE TRIGGER "{table}_wake" AFTER UPDATE OF "{column}" ON "{table}" '
            "FOR EACH STATEMENT EXECUTE FUNCTION fivetricks_wake()"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, _column in WATCHED:
        schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_wake" ON "{table}"')
    schema_editor.execute("DROP FUNCTION IF EXISTS fivetricks_wake()")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0025_event_video_secret"),
        ("tables", "0015_screen_sighting"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
