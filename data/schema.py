"""The schema: the numbered SQL files of ``data/migrations``, applied in order, once.

One series serves both databases: the files use types and statements SQLite and
PostgreSQL both accept (TEXT, INTEGER, BIGINT, DOUBLE PRECISION, partial unique indexes,
``INSERT … ON CONFLICT``). Each file is applied in its own transaction and recorded in
``schema_migrations`` by its name, so a second start changes nothing, and a file is
claimed before it is applied: two processes starting together on a new database each
apply every file once between them (the claim waits for the other's commit; PostgreSQL
also takes a transaction lock named for the schema first, see ``Session.serialize``, so
that even creating ``schema_migrations`` itself cannot race; it waits for that lock as
long as the other process's migration takes, past the store's lock timeout).
"""

from __future__ import annotations

import time
from importlib import resources

from data.backend import Backend, Session

_LOCK = "schema_migrations"


def migration_files() -> list[tuple[str, str]]:
    """(name, SQL) of every file in ``data/migrations``, in the order they apply."""
    folder = resources.files("data") / "migrations"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return [(f.name, f.read_text()) for f in files]


def statements(script: str) -> list[str]:
    """Split a migration file into statements (no semicolons inside our SQL)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


async def migrate(backend: Backend) -> list[str]:
    """Apply the files not yet applied; returns the names applied now."""

    async def create(tx: Session) -> set[str]:
        await tx.serialize([_LOCK], patient=True)
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        return {row["name"] for row in await tx.fetch("SELECT name FROM schema_migrations")}

    done = await backend.write(create)
    applied = []
    for name, script in migration_files():
        if name in done:
            continue

        async def apply(tx: Session, name: str = name, script: str = script) -> bool:
            await tx.serialize([_LOCK], patient=True)
            claimed = await tx.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (name, time.time()),
            )
            if claimed == 0:
                return False  # another process applied it meanwhile
            for statement in statements(script):
                await tx.execute(statement)
            return True

        if await backend.write(apply):
            applied.append(name)
    return applied
