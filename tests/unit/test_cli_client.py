"""The `metamodel` tool's HTTP client keeps within the key's rate limit: it pauses before the
window runs out (RateLimit-Remaining / RateLimit-Reset) and waits out a 429's Retry-After."""

from __future__ import annotations

import httpx
import pytest

from cli.client import Api, ApiError


def client(answers: list[httpx.Response], slept: list[float]) -> Api:
    sent = iter(answers)
    return Api("http://api.test", "mm_live_x", sleep=slept.append,
               transport=httpx.MockTransport(lambda request: next(sent)))


def test_it_pauses_before_the_window_runs_out_and_waits_out_a_429() -> None:
    slept: list[float] = []
    api = client([
        httpx.Response(200, json={"data": {"n": 1}},
                       headers={"RateLimit-Remaining": "5", "RateLimit-Reset": "30"}),
        httpx.Response(200, json={"data": {"n": 2}},
                       headers={"RateLimit-Remaining": "1", "RateLimit-Reset": "7"}),
        httpx.Response(429, json={"message": "slow down"}, headers={"Retry-After": "3"}),
        httpx.Response(200, json={"data": {"n": 3}}),
    ], slept)
    assert api.request("GET", "/a") == {"n": 1} and slept == []
    assert api.request("GET", "/b") == {"n": 2} and slept == []
    assert api.request("GET", "/c") == {"n": 3}
    # Paused for the window's reset before asking, then for the 429's Retry-After.
    assert len(slept) == 2 and 6 < slept[0] <= 7 and slept[1] == 3


def test_a_refusal_carries_the_api_message() -> None:
    api = client([httpx.Response(401, json={"message": "This API key is not valid."})], [])
    with pytest.raises(ApiError) as refused:
        api.request("GET", "/api/v1/credits")
    assert refused.value.auth and refused.value.message == "This API key is not valid."
