"""Temporal activities: classes that receive their dependencies in the constructor."""
