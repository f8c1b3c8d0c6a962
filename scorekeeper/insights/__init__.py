"""What the history tells: statistics, the sessions list, settle-up over sessions."""
