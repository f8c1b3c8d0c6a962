"""What goes in and out: JSON read in, backup and restore, CSV, the trash, shared rule sets."""
