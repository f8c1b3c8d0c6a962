"""The rules engine's own tests: the numbers of RULES.md, with no Flask and no database."""
