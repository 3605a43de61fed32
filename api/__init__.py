"""The HTTP API (FastAPI). Depends on core/ only; starts workflows by name."""
