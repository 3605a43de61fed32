"""What every gate's report shares (engine/quality.py's quality gate, the generative engine's
artefact and fidelity gates): refused for its failures, logged and stored as a plain dict."""

from __future__ import annotations

import logging
import math
from dataclasses import asdict
from typing import Any


class Scored:
    """A mixin for a frozen dataclass of scores with a `failures` field (the names of the
    scores that refused it)."""

    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures

    def as_dict(self) -> dict[str, object]:
        """The scores rounded to 4 places (a score that could not be measured as a number,
        NaN or infinite, reads None: JSON has no NaN), the failures as a list."""
        instance: Any = self  # a dataclass: the classes that mix this in are
        values = asdict(instance)
        values["failures"] = list(self.failures)
        return {
            key: (round(value, 4) if math.isfinite(value) else None)
            if isinstance(value, float) else value
            for key, value in values.items()
        }


def log_scores(log: logging.Logger, what: str, key: str, report: Scored, operation: str,
               seed: int, attempt: int) -> None:
    """One line per scored attempt ("<what> <operation> attempt <n>: passed|refused ..."), the
    scores and the attempt's facts under `key` and the verdict under `<key>_passed`, which is
    what the logs' readers (and tests) look for."""
    log.info("%s %s attempt %d: %s", what, operation, attempt,
             "passed" if report.passed else "refused " + ",".join(report.failures),
             extra={key: {**report.as_dict(), "operation": operation, "seed": seed,
                          "attempt": attempt}, f"{key}_passed": report.passed})
