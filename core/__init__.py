"""The shared package: settings, database, storage, contracts and the engine interface.

api/, workflows/ and activities/ import from here; this package imports none of them.
"""
