"""Accounts, sessions and tokens: who is calling and what they may do.

- sessions.py: bearer tokens checked against their server-side sessions; a user's sessions
  started, refreshed and ended (AuthSessions);
- guests.py: guest accounts by browser fingerprint, and their work adopted at sign-in (Guests);
- users.py: users created, read, renamed, their password changed (Users);
- signup.py: sign-up with a mailed code (Signup); code_mail.py: those codes' mails and checks;
- login.py: password and Google sign-in, password reset (Logins);
- api_keys.py: an account's API keys, how a shop's program calls the public API (ApiKeys);
- ownership.py: what a caller owns, an object of its account and of its mode (test or live);
- codes.py: one-time mailed codes for sign-up and password reset; passwords.py: Argon2id hashes;
- tokens.py, devices.py, emails.py, recent.py: the pieces they share.
"""
