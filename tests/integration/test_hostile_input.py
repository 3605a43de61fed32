"""Hostile text, dates and numbers at every query and body parser, on SQLite and PostgreSQL.

Attack findings 1 and 2 got past schemathesis: a lone surrogate in pollTasks' JSON query
(`["\\ud800"]`, a 500 from the database driver) and a usage range ending 9999-12-31 (an
OverflowError a day later). Schemathesis draws from each schema's own types; these tests draw,
with Hypothesis, what an attacker types instead, for every operation of our OpenAPI document:
arbitrary Unicode with lone surrogates and NULs, calendar extremes and date-shaped strings,
huge, negative and non-finite numbers, wrong types, JSON inside query strings. The rule checked
is the product's: never a server error, and every refusal is JSON with a message a person reads.

HOSTILE_EXAMPLES (per field) and HOSTILE_SEED make a longer or another run.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from api.validation import SURROGATE_MESSAGE
from core.enums import UserRole
from core.settings import Settings
from ops.admin import set_role
from tests.support.accounts import sign_up
from tests.support.stacks import DatabaseStacks, sessions_for

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "25"))  # per field
SEED = int(os.environ.get("HOSTILE_SEED", "20261125"))

# Every character, lone surrogates (category Cs) and NUL included.
ANY_CHAR = st.characters(codec=None, exclude_categories=())
SURROGATE = st.integers(0xD800, 0xDFFF).map(chr)
EXTREME_DAYS = st.sampled_from(
    [date.min, date.max, date(1, 1, 31), date(9999, 12, 1), date(1970, 1, 1), date(2000, 2, 29)])
DAY_TEXT = st.one_of(
    st.dates().map(date.isoformat),
    EXTREME_DAYS.map(date.isoformat),
    st.sampled_from(["0000-00-00", "2026-02-30", "99999-01-01", "-0001-01-01", "2026-13-01",
                     "2026-1-1", "９９９９-１２-３１", "2026-01-01T00:00:00", ""]),
)
NUMBER_TEXT = st.one_of(
    st.integers().map(str),
    st.sampled_from(["9" * 40, "-9" * 20, "1e309", "NaN", "Infinity", "-0", "0x10", "１２"]),
)
HOSTILE_TEXT = st.sampled_from([
    st.text(ANY_CHAR, max_size=40),
    st.tuples(st.text(max_size=8), SURROGATE, st.text(max_size=8)).map("".join),  # lone
    DAY_TEXT,
    NUMBER_TEXT,
    st.just("\x00"),
]).flatmap(lambda chosen: chosen)  # each kind as often (one_of leans to its first branches)
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=2**63 - 2, max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
)


def hostile(
    schema: dict[str, Any], spec: dict[str, Any], depth: int = 0
) -> st.SearchStrategy[Any]:
    """A value shaped like `schema` (so it reaches the parsers behind the type checks) whose
    text and numbers are hostile; sometimes of another type altogether."""
    schema = resolve(schema, spec)
    variants = schema.get("anyOf") or schema.get("oneOf")
    if variants:
        return st.one_of([hostile(v, spec, depth) for v in variants])
    kind = schema.get("type")
    shaped: st.SearchStrategy[Any]
    if kind == "string" or "enum" in schema:
        shaped = HOSTILE_TEXT
    elif kind in ("integer", "number"):
        shaped = NUMBERS
    elif kind == "boolean":
        shaped = st.booleans()
    elif kind == "array" and depth < 3:
        shaped = st.lists(hostile(schema.get("items", {}), spec, depth + 1), max_size=4)
    elif kind == "object" and depth < 3:
        shaped = body_for(schema, spec, depth + 1)
    else:
        shaped = st.none()
    wrong = st.one_of(st.none(), NUMBERS, HOSTILE_TEXT, st.lists(HOSTILE_TEXT, max_size=2))
    return st.one_of(shaped, shaped, shaped, wrong)


def body_for(
    schema: dict[str, Any], spec: dict[str, Any], depth: int = 0
) -> st.SearchStrategy[Any]:
    """A JSON object with the schema's fields (the required ones always) and hostile values."""
    schema = resolve(schema, spec)
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {name: hostile(sub, spec, depth) for name, sub in properties.items() if name in required},
        optional={name: hostile(sub, spec, depth)
                  for name, sub in properties.items() if name not in required},
    )


def resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = spec
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


WITH_SURROGATE = st.tuples(st.text(max_size=8), SURROGATE, st.text(max_size=8)).map("".join)
# JSON inside a query string (pollTasks' taskIds is one): its escapes decode to lone surrogates.
JSON_ARRAY_TEXT = st.lists(
    st.sampled_from([WITH_SURROGATE, HOSTILE_TEXT]).flatmap(lambda chosen: chosen),
    min_size=1, max_size=3,
).map(json.dumps)
CALENDAR_EDGES = st.sampled_from([date.min, date.max]).map(date.isoformat)


def text_value(name: str, schema: dict[str, Any], spec: dict[str, Any]) -> st.SearchStrategy[str]:
    """A hostile value for a query, path or form field (all text on the wire), weighted the way
    an attacker aims: the calendar's edges at a date, huge numbers at a number, JSON at text."""
    schema = resolve(schema, spec)
    kinds = {v.get("type") for v in schema.get("anyOf", [schema])}
    choices = [HOSTILE_TEXT, JSON_ARRAY_TEXT, WITH_SURROGATE]
    if "date" in name.lower() or schema.get("format") == "date":
        choices += [CALENDAR_EDGES, CALENDAR_EDGES, DAY_TEXT]
    if kinds & {"integer", "number"}:
        choices += [NUMBER_TEXT, NUMBER_TEXT]
    return st.sampled_from(choices).flatmap(lambda chosen: chosen)  # each as often


def plausible(schema: dict[str, Any], spec: dict[str, Any]) -> Any:
    """An ordinary value of the schema's type, for the fields not under attack."""
    schema = resolve(schema, spec)
    kind = next((v.get("type") for v in schema.get("anyOf", [schema]) if v.get("type")), None)
    if "enum" in schema:
        return schema["enum"][0]
    return {"integer": 1, "number": 1, "boolean": True, "array": [], "object": {}}.get(
        str(kind), "x")


def encoded(text: str) -> str:
    """Percent-encoded UTF-8, lone surrogates as the bytes a careless client would send."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@dataclass
class Operation:
    method: str
    path: str
    parameters: list[dict[str, Any]]
    body: dict[str, Any] | None  # the JSON schema of a JSON body
    form: dict[str, Any] | None  # the schema of a form body

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"


def operations(spec: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            content = (op.get("requestBody") or {}).get("content", {})
            json_body = content.get("application/json", {}).get("schema")
            form = (content.get("multipart/form-data")
                    or content.get("application/x-www-form-urlencoded") or {}).get("schema")
            found.append(Operation(method, path, op.get("parameters", []), json_body, form))
    return found


@dataclass
class Tally:
    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    surrogate_refusals: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Field:
    where: str  # path | query | json | form
    name: str
    schema: dict[str, Any]
    required: bool


def fields_of(operation: Operation, spec: dict[str, Any]) -> list[Field]:
    found = [Field(p["in"], p["name"], p.get("schema", {}), p["in"] == "path" or p.get("required",
             False)) for p in operation.parameters if p["in"] in ("path", "query")]
    for where, schema in (("json", operation.body), ("form", operation.form)):
        if schema is not None:
            body = resolve(schema, spec)
            required = set(body.get("required", []))
            found += [Field(where, name, sub, name in required)
                      for name, sub in body.get("properties", {}).items()]
    return found


def request_for(
    operation: Operation, spec: dict[str, Any], target: int
) -> st.SearchStrategy[dict[str, Any]]:
    """Requests with the field `target` under attack, the required others ordinary and the
    optional others absent, so each request reaches the attacked field's parser instead of
    failing on another one; target -1: the whole JSON body hostile."""
    fields = fields_of(operation, spec)
    parts: dict[str, dict[str, st.SearchStrategy[Any]]] = {
        "path": {}, "query": {}, "json": {}, "form": {}}
    for index, one in enumerate(fields):
        if index == target:
            parts[one.where][one.name] = (
                hostile(one.schema, spec) if one.where == "json"
                else text_value(one.name, one.schema, spec))
        elif one.required:
            ordinary = plausible(one.schema, spec)
            if one.where != "json" and not isinstance(ordinary, str):
                ordinary = json.dumps(ordinary)
            parts[one.where][one.name] = st.just(ordinary)
    drawn: dict[str, st.SearchStrategy[Any]] = {
        where: st.fixed_dictionaries(parts[where]) for where in ("path", "query")}
    if operation.body is not None:
        drawn["json"] = (hostile(operation.body, spec) if target == -1
                         else st.fixed_dictionaries(parts["json"]))
    if operation.form is not None:
        drawn["form"] = st.fixed_dictionaries(parts["form"])
    return st.fixed_dictionaries(drawn)


def send(api: httpx.Client, operation: Operation, drawn: dict[str, Any],
         headers: dict[str, str], tally: Tally) -> None:
    path = operation.path
    for name, value in drawn["path"].items():
        path = path.replace("{" + name + "}", encoded(value) or "x")
    query = "&".join(f"{quote(k)}={encoded(v)}" for k, v in drawn["query"].items())
    url = f"{path}?{query}" if query else path
    sent = dict(headers)
    content: bytes | None = None
    if "json" in drawn:
        # ensure_ascii: lone surrogates travel as \ud800 escapes, as any JSON encoder sends them.
        content = json.dumps(drawn["json"], ensure_ascii=True, allow_nan=True).encode()
        sent["content-type"] = "application/json"
    elif "form" in drawn:
        content = "&".join(f"{quote(k)}={encoded(v)}" for k, v in drawn["form"].items()).encode()
        sent["content-type"] = "application/x-www-form-urlencoded"
    tally.sent += 1
    try:
        response = api.request(operation.method.upper(), url, content=content, headers=sent)
    except httpx.HTTPError as error:  # a dropped connection is as bad as a 500
        tally.failures.append(f"{operation.label} {url[:200]!r}: {error!r}")
        return
    tally.statuses[response.status_code] += 1
    problem = None
    if response.status_code >= 500:
        problem = "a server error"
    elif response.status_code >= 400:
        try:
            message = response.json().get("message")
        except ValueError:
            message = None
        if not isinstance(message, str) or not message:
            problem = "a refusal without a JSON message"
        elif message.endswith(SURROGATE_MESSAGE):
            tally.surrogate_refusals += 1
    if problem:
        tally.failures.append(f"{operation.label} {url[:200]!r} {str(drawn)[:300]} -> "
                              f"{response.status_code} ({problem}): {response.text[:300]}")


def run_all(stack: Settings) -> Tally:
    api = httpx.Client(base_url=stack.app_url, timeout=60)
    spec = api.get("/openapi.json").json()
    guest = api.post("/imageedit/users/guestlogin", headers={"x-fingerprint-id": uuid.uuid4().hex})
    guest_auth = {"authorization": f"Bearer {guest.json()['data']['token']}"}
    # The account and admin operations as an admin: a guest or a plain user would only meet
    # 401 or 403 there, and their parsers would never run.
    user_auth = {"authorization": f"Bearer {signed_up(api, stack, admin=True)}"}
    tally = Tally()
    for operation in operations(spec):
        if operation.path.endswith("/auth/logout"):
            headers: dict[str, str] = {}  # it would end the session the other calls use
        elif (operation.path.startswith(("/api/v1/user/", "/api/v1/admin/", "/api/v1/payment/"))
              or operation.path == "/imageedit/users/getCredits"):
            headers = user_auth
        else:
            headers = guest_auth
        exercise(api, spec, operation, headers, tally)
    api.close()
    return tally


def exercise(api: httpx.Client, spec: dict[str, Any], operation: Operation,
             headers: dict[str, str], tally: Tally) -> None:
    """EXAMPLES requests Hypothesis draws for each field of one operation (and for its JSON
    body as a whole)."""
    targets = list(range(len(fields_of(operation, spec))))
    if operation.body is not None:
        targets.append(-1)
    for target in targets or [-2]:

        @given(drawn=request_for(operation, spec, target))
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @seed(SEED)
        def run(drawn: dict[str, Any]) -> None:
            send(api, operation, drawn, headers, tally)

        run()


def signed_up(api: httpx.Client, stack: Settings, admin: bool = False) -> str:
    """A user's token, through the real sign-up; made an admin if asked."""
    email = f"h-{uuid.uuid4().hex[:8]}@example.com"
    with sessions_for(stack.resolved_database_url) as db:
        token = sign_up(api, db, email)
        if admin:
            assert set_role(db, email, UserRole.ADMIN)
    return token


@pytest.fixture(scope="module")
def hostile_runs(database_stacks: DatabaseStacks) -> Iterator[dict[str, Future[Tally]]]:
    """Both databases' runs, started together as the module starts, side by side (as
    test_schema_fuzz's): bounded in examples, not time, each sends what it sent alone."""
    with database_stacks.side_by_side(run_all) as runs:
        yield runs


def test_hostile_input_never_gets_a_server_error(
    stack_on_each_database: Settings, hostile_runs: dict[str, Future[Tally]]
) -> None:
    stack = stack_on_each_database
    tally = hostile_runs[stack.app_url].result(timeout=900)
    database = stack.resolved_database_url.split(":")[0]
    print(f"\nhostile input on {database}: {tally.sent} requests, statuses "
          f"{dict(sorted(tally.statuses.items()))}, {tally.surrogate_refusals} refused for a "
          f"lone surrogate, {len(tally.failures)} failures")
    assert not tally.failures, "\n".join(tally.failures[:30])
    assert tally.sent >= 50 * EXAMPLES
    assert tally.surrogate_refusals > 0  # the generator does reach the rule


# The two findings themselves, as the attack run sent them.


@pytest.fixture(scope="module")
def sqlite_stack(database_stacks: DatabaseStacks) -> Settings:
    """The run's SQLite stack, the one the fuzz test above already started (default settings,
    a guest and an account of their own here): no stack of their own to boot."""
    return database_stacks.stack("sqlite").settings


def test_a_lone_surrogate_gets_a_json_422_everywhere(sqlite_stack: Settings) -> None:
    with httpx.Client(base_url=sqlite_stack.app_url, timeout=30) as api:
        token = api.post("/imageedit/users/guestlogin",
                         headers={"x-fingerprint-id": uuid.uuid4().hex}).json()["data"]["token"]
        auth = {"authorization": f"Bearer {token}"}
        polled = api.get("/api/v1/task/pollTasks?taskIds=%5B%22%5Cud800%22%5D", headers=auth)
        assert polled.status_code == 422, polled.text
        assert SURROGATE_MESSAGE in polled.json()["message"]
        for path, body in (
            ("/api/v1/auth/login", b'{"email": "a\\udc00@example.com", "password": "x"}'),
            ("/api/v1/auth/generateSignupOTP", b'{"email": "\\ud83d@example.com"}'),
            ("/imageedit/users/guestlogin", b'{"fingerprintId": "\\udfff"}'),
        ):
            answer = api.post(path, content=body, headers={**auth,
                                                           "content-type": "application/json"})
            assert answer.status_code == 422, (path, answer.text)
            assert SURROGATE_MESSAGE in answer.json()["message"], path
        # A surrogate pair is a real character, and is no problem.
        fine = api.post("/api/v1/auth/generateSignupOTP",
                        content=b'{"email": "\\ud83d\\ude00@example.com"}',
                        headers={"content-type": "application/json"})
        assert fine.status_code < 500 and SURROGATE_MESSAGE not in fine.text


def test_usage_dates_are_bounded_with_a_clear_message(sqlite_stack: Settings) -> None:
    with httpx.Client(base_url=sqlite_stack.app_url, timeout=30) as api:
        auth = {"authorization": f"Bearer {signed_up(api, sqlite_stack)}"}
        for query in ({"fromDate": "9999-12-31", "toDate": "9999-12-31"},
                      {"toDate": "0001-01-01"}, {"fromDate": "0001-01-01"},
                      {"fromDate": "9999-12-31"}):
            answer = api.get("/api/v1/user/creditUsage", params=query, headers=auth)
            assert answer.status_code == 422, (query, answer.text)
            assert "choose a day from 2000-01-01 to" in answer.json()["message"], query
        assert api.get("/api/v1/user/creditUsage", headers=auth,
                       params={"fromDate": "2026-01-01", "toDate": "2026-01-31"}).status_code == 200
