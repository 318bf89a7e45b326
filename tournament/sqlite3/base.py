"""Django's SQLite backend (ENGINE "tournament.sqlite3"), making the database's folder
when it first connects, so that importing the settings writes nothing."""

from __future__ import annotations

from pathlib import Path

from django.db.backends.sqlite3 import base

from tournament.common.folders import make_folder


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict):
        if not self.is_in_memory_db():
            make_folder(Path(self.settings_dict["NAME"]).parent)
        return super().get_new_connection(conn_params)
