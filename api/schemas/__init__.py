"""Request and response bodies, a module per router plus common.py (camelCase names, `_id`)."""
