"""What every answer shares: hosts, ids in addresses, deadlines and the configuration."""
