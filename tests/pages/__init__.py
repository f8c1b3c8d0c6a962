"""The pages for people at the table, through the test client (tests/browser/ drives them in
Chromium)."""
