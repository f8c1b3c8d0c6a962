"""Passcodes, sign-ins, invites and share links."""
