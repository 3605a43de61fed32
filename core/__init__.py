"""The shared package: settings, database, storage, contracts and the engine interface.

api/, workflows/ and activities/ import from here; this package imports none of them.

The rules live in one package per domain (auth/, billing/, catalog/, contact/, generations/,
library/, photos/, provenance/, webhooks/), each saying in its docstring what it owns. What every
domain shares stays at the top: settings, db, storage (with presign and keys), mail (the outbox),
ratelimit, errors, enums, the engine's interface, starting workflows and their search attributes
(workflow_starter, workflow_search), the credit ledger (credits: auth grants free credits and
billing sells them, so in either package it would make the two import each other) and GST (gst:
a buyer's GSTIN on the profile, the tax on invoices). contracts/ and models/ are the workflows'
inputs and the tables, by area.
"""
