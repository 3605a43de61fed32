"""Accounts, sessions and tokens: who is calling and what they may do.

- sessions.py: bearer tokens checked against their server-side sessions; a user's sessions
  started, refreshed and ended (AuthSessions);
- guests.py: guest accounts by browser fingerprint, and their work adopted at sign-in (Guests);
- users.py: users created, read, renamed, their password changed (Users);
- signup.py: sign-up with a mailed code (Signup); code_mail.py: those codes' mails and checks;
- login.py: password and Google sign-in, password reset (Logins);
- tokens.py, devices.py, emails.py, recent.py: the pieces they share.
"""
