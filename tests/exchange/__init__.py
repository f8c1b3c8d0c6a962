"""What goes in and out: backups and restores, CSV both ways, nights imported, rule sets shared."""
