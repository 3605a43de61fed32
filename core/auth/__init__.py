"""Accounts, sessions and tokens: who is calling and what they may do."""
