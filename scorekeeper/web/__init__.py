"""What every answer shares: errors, request checks, hosts, ids in addresses, scripts, styles."""
