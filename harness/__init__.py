"""What the tests and the benchmarks both use to run the app: gunicorn and the `flask` commands
in processes of their own, a database emptied, sessions built through the write path, and the
Chromium to drive. Not part of the app, nor of its wheel."""
