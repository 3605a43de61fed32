"""Webhooks (issue 23): telling a shop's program what happened, signed, retried, never twice.

- endpoints.py: an account's endpoints, the events queued for them in the transaction of the
  change they report, and the deliveries' log (Webhooks);
- delivery.py: deliveries claimed for the relay, each attempt sent and recorded, given up when
  the retry window is spent;
- targets.py: where a webhook may be sent (no private addresses) and sending it there.
"""
