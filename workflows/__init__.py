"""Deterministic workflow code only. The worker (composition root) is ops/worker.py."""
