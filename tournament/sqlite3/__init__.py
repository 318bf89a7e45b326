"""Django's SQLite backend, plus: the database's folder is made at the first connection
(tournament.common.folders), not when the settings are imported."""
