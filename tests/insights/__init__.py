"""What the history tells: statistics, the leaderboard, the sessions list and what a date means."""
