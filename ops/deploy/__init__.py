"""`make deploy-check`: the production shape built and run under podman (check.py)."""
