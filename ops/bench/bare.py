"""The yardstick for pollTasks' requests per second: a bare FastAPI JSON endpoint, served by
uvicorn with the API's settings in a process of its own (ops/bench/polls.py starts it)."""

from __future__ import annotations

from fastapi import FastAPI

app = FastAPI()


@app.get("/bare")
async def bare() -> dict[str, object]:
    return {"data": [{"taskId": "bare", "status": "completed", "progress": 100}]}
