"""What the tests share, by subject: the API as a script speaks it (`api`), the engine's
entries (`rules`), pages and their forms (`pages`), backups (`backups`), the nights at a table
the statistics and exports add up (`tables`), the statistics' season (`stats_season`), test
databases and apps (`database`), Chromium's pages (`browser`) and a live server's sessions
(`live`)."""
