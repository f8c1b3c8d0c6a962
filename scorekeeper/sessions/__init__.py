"""What a session is kept as: models, database locks, loading and writing, the one write path."""
