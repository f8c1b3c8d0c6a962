"""What a session is kept as: the one write path, its locks, summaries, the migrations, players."""
