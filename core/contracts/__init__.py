"""Workflow and activity contracts, one module per workflow: names and one dataclass per
input/output.

The API starts workflows by name with these dataclasses and never imports workflows/ or
activities/. Everything here is plain data that Temporal serialises; images are object keys.
"""
