"""What people write to us: each message kept, mailed to its team through the outbox, rate limited.

- form.py: the contact form (mailed to support);
- inquiries.py: enterprise (demo) inquiries, checked with the spec's rules (mailed to sales).
"""
