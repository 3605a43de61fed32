"""Bearer tokens this process verified moments ago, so that a browser polling several times a
second costs one token check and one session read every couple of seconds, not on every request.

An entry lives at most `ttl` seconds and never past its token's or its session's end. Any
change this process makes to sessions, accounts or users (logout, password change, a guest
becoming a user...) empties the cache at once (AuthSessions wires that to the session
factory), so in one API process nothing a user does is ever answered from a stale entry.
Another API process ending a session is seen here within `ttl`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from core.auth.tokens import Principal


class RecentTokens:
    def __init__(self, ttl: float, size: int = 10_000) -> None:
        self.ttl = ttl
        self.size = size
        self._entries: OrderedDict[str, tuple[Principal, float]] = OrderedDict()
        self._lock = threading.Lock()
        # Bumped by every clear: a check that started before a clear must not store its
        # (possibly already revoked) answer after it.
        self._epoch = 0

    @property
    def epoch(self) -> int:
        return self._epoch

    def get(self, token: str) -> Principal | None:
        with self._lock:
            entry = self._entries.get(token)
            if entry is None:
                return None
            principal, until = entry
            if time.time() >= until:
                del self._entries[token]
                return None
            return principal

    def put(self, token: str, principal: Principal, until: float, epoch: int) -> None:
        """Remember `principal` for `token` until the wall-clock time `until` (capped at ttl),
        unless the cache was cleared since `epoch` was read."""
        if self.ttl <= 0:
            return
        until = min(until, time.time() + self.ttl)
        with self._lock:
            if epoch != self._epoch:
                return
            self._entries[token] = (principal, until)
            self._entries.move_to_end(token)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._epoch += 1
            self._entries.clear()
