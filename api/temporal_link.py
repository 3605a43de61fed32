"""The API's link to Temporal: connects in the background, watches the server, never blocks.

The API must answer (health, reads, uploads) while Temporal is down or still starting; only
submits need Temporal, and they are refused at once with `TemporalUnavailable` (the submit code
answers 503, nothing charged) until the link is up again. Once connected, the client's own
channel reconnects by itself; the link checks the server's health every `check_interval`
seconds so an outage is noticed in about a second instead of after the client's ten seconds of
retries on a submit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from temporalio.client import Client, WorkflowHandle
from temporalio.service import RPCError, RPCStatusCode

from core.observability.setup import temporal_interceptors
from core.settings import Settings

log = logging.getLogger(__name__)


class TemporalUnavailable(Exception):
    """No connection to Temporal right now: nothing was started."""


class TemporalLink:
    """A Temporal client that may not exist yet, with an up/down state kept fresh in the background.

    `start()` begins connecting (it returns at once); `wait_up()` waits a little for the first
    connection; `start_workflow()` has the meaning of `Client.start_workflow` but raises
    `TemporalUnavailable` at once while the link is down; `close()` stops the background task.
    """

    def __init__(
        self,
        connect: Callable[[], Awaitable[Client]],
        *,
        check_interval: float = 1.0,
        retry_initial: float = 0.5,
        retry_max: float = 5.0,
        target: str = "Temporal",
    ) -> None:
        self._connect = connect
        self._check_interval = check_interval
        self._retry_initial = retry_initial
        self._retry_max = retry_max
        self._target = target
        self._client: Client | None = None
        self._up = asyncio.Event()
        self._lost = False
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def from_settings(cls, settings: Settings, **options: Any) -> TemporalLink:
        async def connect() -> Client:
            return await Client.connect(
                settings.temporal_address,
                namespace=settings.temporal_namespace,
                interceptors=temporal_interceptors(settings),
                # Fail a connect attempt quickly; the link tries again on its own.
                connect_timeout=timedelta(seconds=3),
            )

        return cls(connect, target=f"Temporal at {settings.temporal_address}", **options)

    @property
    def up(self) -> bool:
        return self._up.is_set()

    @property
    def client(self) -> Client | None:
        """The client once connected (it may be down right now: see `up`)."""
        return self._client

    def start(self) -> TemporalLink:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._keep_linked(), name="temporal-link"
            )
        return self

    async def wait_up(self, timeout: float) -> bool:
        """Wait at most `timeout` seconds for the link to be up; True when it is."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._up.wait(), timeout)
        return self.up

    async def start_workflow(self, workflow: Any, arg: Any, **kw: Any) -> WorkflowHandle[Any, Any]:
        """`Client.start_workflow(workflow, arg, id=..., task_queue=..., id_conflict_policy=...,
        ...)`, the same keywords with the same meaning; raises `TemporalUnavailable` at once (and
        starts nothing) while the link is down.

        The keywords are passed through unnamed so that the link matches the `WorkflowStarter`
        protocol of `core.workflow_starter`.
        """
        client = self._client
        if client is None or not self.up:
            raise TemporalUnavailable(f"{self._target} is not reachable right now")
        try:
            handle: WorkflowHandle[Any, Any] = await client.start_workflow(workflow, arg, **kw)
        except RPCError as err:
            if err.status == RPCStatusCode.UNAVAILABLE:
                self._set_down(err)
            raise
        return handle

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._up.clear()

    # The background task: connect with backoff, then check health for as long as we run.

    async def _keep_linked(self) -> None:
        delay = self._retry_initial
        while self._client is None:
            try:
                self._client = await self._connect()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if delay == self._retry_initial:
                    log.warning("%s is not reachable (%s); retrying in the background",
                                self._target, err)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._retry_max)
        self._set_up()
        while True:
            await asyncio.sleep(self._check_interval)
            try:
                # Generous: a busy server is not a dead one (a refused connection fails at once).
                healthy = await self._client.service_client.check_health(
                    timeout=timedelta(seconds=5)
                )
            except asyncio.CancelledError:
                raise
            except Exception as err:
                self._set_down(err)
                continue
            if healthy:
                self._set_up()
            else:
                self._set_down("the workflow service is not serving")

    def _set_up(self) -> None:
        if not self._up.is_set():
            if self._lost:
                log.warning("%s is back; submits are accepted again", self._target)
            else:
                log.info("connected to %s", self._target)
            self._up.set()

    def _set_down(self, reason: object) -> None:
        if self._up.is_set():
            log.warning("lost %s (%s); submits are refused until it is back", self._target, reason)
            self._lost = True
            self._up.clear()
