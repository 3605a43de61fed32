"""A small HTTP client for the tests: a guest using the API as the browser does."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import httpx


class Guest:
    def __init__(self, base_url: str, fingerprint: str | None = None) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=60)
        self.fingerprint = fingerprint or uuid.uuid4().hex
        response = self.http.post(
            "/imageedit/users/guestlogin", headers={"x-fingerprint-id": self.fingerprint}
        )
        response.raise_for_status()
        self.token: str = response.json()["data"]["token"]
        self.start_credits: int = response.json()["data"]["credits"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "x-fingerprint-id": self.fingerprint}

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(path, params=params, headers=self.headers)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.http.post(path, headers=headers, **kwargs)

    def credits(self) -> int:
        response = self.get("/imageedit/users/getCreditsForGuests")
        response.raise_for_status()
        total: int = response.json()["data"]["total"]
        return total

    def upload(self, data: bytes, filename: str = "photo.jpg", mime: str = "image/jpeg") -> str:
        """Presigned URL, then PUT straight to storage, as the browser does. Returns the key."""
        response = self.get(
            "/api/v1/request/presignedUrl", filename=filename, mimeType=mime,
            requestType="bodySwap",
        )
        response.raise_for_status()
        target = response.json()["data"]
        put = httpx.put(target["url"], content=data, headers={"Content-Type": mime})
        put.raise_for_status()
        key: str = target["key"]
        return key

    def submit(self, service: str, keys: list[str], idempotency_key: str | None = None,
               **fields: str) -> httpx.Response:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self.post(
            f"/imageedit/service/{service}",
            data={**fields, "inputFiles": keys},
            headers=headers,
        )

    def poll(self, task_ids: list[str]) -> httpx.Response:
        return self.get("/api/v1/task/pollTasks", taskIds=json.dumps(task_ids))

    def wait(self, task_ids: list[str], timeout: float = 180) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            response = self.poll(task_ids)
            response.raise_for_status()
            tasks: list[dict[str, Any]] = response.json()["data"]
            if all(t["status"] in ("completed", "failed") for t in tasks):
                return tasks
            time.sleep(0.2)
        raise TimeoutError(f"tasks not finished after {timeout}s")

    def wait_generation(self, generation_id: str, timeout: float = 60) -> dict[str, Any]:
        """The generation once it has finished (its notify step runs after the last task)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            response = self.get(f"/imageedit/service/{generation_id}")
            response.raise_for_status()
            service: dict[str, Any] = response.json()["data"]
            if service["status"] in ("completed", "failed"):
                return service
            time.sleep(0.2)
        raise TimeoutError(f"service not finished after {timeout}s")

    def generation_count(self) -> int:
        response = self.get("/imageedit/service/all")
        response.raise_for_status()
        total: int = response.json()["data"]["total"]
        return total
