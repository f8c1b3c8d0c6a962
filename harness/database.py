"""A database emptied of everything, whatever made it."""

from __future__ import annotations

from sqlalchemy import MetaData, create_engine


def drop_everything(url: str) -> None:
    """Every table, alembic_version included, whether the models know it or not."""
    engine = create_engine(url)
    try:
        tables = MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
    finally:
        engine.dispose()
