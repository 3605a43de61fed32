"""A small local server speaking the subset of Stripe's REST API our Stripe provider calls,
with Stripe's documented request and response shapes, and Stripe's webhooks.

- Requests: `Authorization: Bearer <secret key>` (401 with Stripe's error shape otherwise),
  form-encoded bodies in Stripe's bracket notation (`line_items[0][price_data][currency]=usd`),
  `Idempotency-Key` honoured (the same key answers the first response again).
- Endpoints: POST /v1/customers, GET /v1/customers/{id}, POST /v1/checkout/sessions,
  GET /v1/checkout/sessions/{id}, GET and POST /v1/subscriptions/{id} (the update: cancel at
  period end, metadata, its item's price by `items[0][price_data]`). Anything else answers 404
  in Stripe's error shape. `refuse(subscription_id, status, error)` makes updates of that
  subscription answer an error (a 402 card_error for a declined upgrade, a 400 otherwise).
- Everything received is recorded (`requests`) for the tests to read.
- Webhooks: `complete(session_id)` plays what Stripe does when the customer pays (a payment
  intent, or a subscription with its first paid invoice) and returns the events Stripe would
  send; `deliver(url, event)` POSTs one signed like Stripe (`Stripe-Signature: t=…,v1=…`,
  HMAC-SHA256 of "{t}.{payload}" with the webhook secret).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

API_VERSION = "2026-10-28.endive"
MONTH = 30 * 24 * 3600


def stripe_id(prefix: str) -> str:
    return f"{prefix}_test_{secrets.token_hex(12)}"


def decode_form(body: str) -> dict[str, Any]:
    """Stripe's form encoding back into objects: `a[b][0][c]=x` → {"a": {"b": [{"c": "x"}]}}."""
    root: dict[str, Any] = {}
    for key, value in parse_qsl(body, keep_blank_values=True):
        parts = re.findall(r"[^\[\]]+", key)
        node: Any = root
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            following: Any = value if last else ({} if not parts[index + 1].isdigit() else [])
            if isinstance(node, list):
                position = int(part)
                while len(node) <= position:
                    node.append(None)
                if node[position] is None or last:
                    node[position] = following
                node = node[position]
            else:
                if part not in node or last:
                    node[part] = following
                node = node[part]
    return root


def sign(payload: bytes, secret: str, timestamp: int | None = None) -> str:
    """Stripe's documented signature header for a webhook body."""
    moment = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{moment}.".encode() + payload, hashlib.sha256)
    return f"t={moment},v1={mac.hexdigest()}"


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    params: dict[str, Any]


@dataclass
class StripeServer:
    secret_key: str
    webhook_secret: str
    requests: list[Received] = field(default_factory=list)
    customers: dict[str, dict[str, Any]] = field(default_factory=dict)
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    subscriptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    invoices: dict[str, dict[str, Any]] = field(default_factory=dict)
    idempotent: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    # Subscriptions whose updates are refused: id → (status, Stripe error body).
    refused: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    # The REST API

    def handle(
        self, method: str, path: str, headers: dict[str, str], body: str
    ) -> tuple[int, dict[str, Any]]:
        params = decode_form(body) if method == "POST" else decode_form(urlsplit(path).query)
        path = urlsplit(path).path
        with self.lock:
            self.requests.append(Received(method, path, headers, params))
            if headers.get("authorization") != f"Bearer {self.secret_key}":
                return 401, error("invalid_request_error", "Invalid API Key provided.")
            key = headers.get("idempotency-key")
            if method == "POST" and key and key in self.idempotent:
                return self.idempotent[key]
            answer = self._route(method, path, params)
            if method == "POST" and key:
                self.idempotent[key] = answer
            return answer

    def _route(self, method: str, path: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if method == "POST" and path == "/v1/customers":
            return 200, self._create_customer(params)
        if method == "POST" and path == "/v1/checkout/sessions":
            return self._create_session(params)
        found = re.fullmatch(r"/v1/subscriptions/([A-Za-z0-9_]+)", path)
        if found and found[1] not in self.subscriptions:
            return 404, error("invalid_request_error", f"No such subscription: '{found[1]}'",
                              code="resource_missing")
        if found and method == "GET":
            return 200, self.subscriptions[found[1]]
        if found and method == "POST":
            return self._update_subscription(self.subscriptions[found[1]], params)
        found = re.fullmatch(r"/v1/(customers|checkout/sessions)/([A-Za-z0-9_]+)", path)
        if method == "GET" and found:
            table = self.customers if found[1] == "customers" else self.sessions
            if found[2] in table:
                return 200, table[found[2]]
            return 404, error("invalid_request_error", f"No such object: '{found[2]}'",
                              code="resource_missing")
        return 404, error("invalid_request_error", f"Unrecognized request URL ({method}: {path}).")

    def refuse(self, subscription_id: str, status: int = 400,
               body: dict[str, Any] | None = None) -> None:
        """Updates of this subscription answer `status` with `body` (Stripe's error shape)."""
        with self.lock:
            self.refused[subscription_id] = (status, body or error(
                "invalid_request_error", "This subscription cannot be updated right now."))

    def _update_subscription(
        self, subscription: dict[str, Any], params: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """POST /v1/subscriptions/{id}: cancel_at_period_end, metadata (merged), and the
        item's new price (`items[0][id]` must name its item)."""
        if subscription["id"] in self.refused:
            return self.refused[subscription["id"]]
        if "cancel_at_period_end" in params:
            subscription["cancel_at_period_end"] = params["cancel_at_period_end"] == "true"
        subscription["metadata"] = {**subscription["metadata"], **params.get("metadata", {})}
        for change in params.get("items") or []:
            (item,) = [i for i in subscription["items"]["data"] if i["id"] == change.get("id")]
            price = change.get("price_data") or {}
            if price.get("product") != item["price"]["product"]:
                return 400, error("invalid_request_error",
                                  f"No such product: '{price.get('product')}'",
                                  param="items[0][price_data][product]")
            item["price"] = {**item["price"], "id": stripe_id("price"),
                             "currency": price["currency"],
                             "unit_amount": int(price["unit_amount"]),
                             "recurring": {"interval": price["recurring"]["interval"]}}
        return 200, subscription

    def _create_customer(self, params: dict[str, Any]) -> dict[str, Any]:
        customer = {
            "id": stripe_id("cus"), "object": "customer", "created": int(time.time()),
            "email": params.get("email"), "metadata": params.get("metadata", {}),
            "livemode": False,
        }
        self.customers[customer["id"]] = customer
        return customer

    def _create_session(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        mode = params.get("mode")
        items = params.get("line_items") or []
        if mode not in ("payment", "subscription") or not items:
            return 400, error("invalid_request_error", "Missing required param: mode.",
                              param="mode")
        customer = params.get("customer")
        if customer is not None and customer not in self.customers:
            return 400, error("invalid_request_error", f"No such customer: '{customer}'",
                              param="customer", code="resource_missing")
        total = 0
        currency = None
        for item in items:
            price = item.get("price_data") or {}
            if mode == "subscription" and "recurring" not in price:
                return 400, error("invalid_request_error",
                                  "You must provide at least one recurring price in "
                                  "`subscription` mode when using prices.")
            total += int(price["unit_amount"]) * int(item.get("quantity", 1))
            currency = price["currency"]
        session_id = stripe_id("cs")
        session = {
            "id": session_id, "object": "checkout.session", "mode": mode,
            "amount_subtotal": total, "amount_total": total, "currency": currency,
            "customer": customer, "client_reference_id": params.get("client_reference_id"),
            "metadata": params.get("metadata", {}), "payment_status": "unpaid",
            "status": "open", "payment_intent": None, "subscription": None, "invoice": None,
            "success_url": params.get("success_url"), "cancel_url": params.get("cancel_url"),
            "url": f"https://checkout.stripe.com/c/pay/{session_id}",
            "created": int(time.time()), "expires_at": int(time.time()) + 24 * 3600,
            "livemode": False,
            # Kept for `complete`; Stripe keeps these on the session's line items.
            "_params": params,
        }
        self.sessions[session_id] = session
        return 200, public(session)

    # What Stripe does when the customer pays, and the events it then sends

    def complete(self, session_id: str) -> dict[str, bytes]:
        """Pay the session; the events Stripe sends for it, by type (not yet delivered)."""
        with self.lock:
            session = self.sessions[session_id]
            params = session["_params"]
            session.update(status="complete", payment_status="paid")
            sent: dict[str, bytes] = {}
            if session["mode"] == "payment":
                session["payment_intent"] = stripe_id("pi")
            else:
                subscription, invoice = self._start_subscription(session, params)
                session["subscription"] = subscription["id"]
                session["invoice"] = invoice["id"]
                sent["invoice.paid"] = event("invoice.paid", invoice)
            sent["checkout.session.completed"] = event("checkout.session.completed",
                                                       public(session))
            return sent

    def _start_subscription(
        self, session: dict[str, Any], params: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        price = params["line_items"][0]["price_data"]
        metadata = (params.get("subscription_data") or {}).get("metadata", {})
        start = int(time.time())
        subscription = {
            "id": stripe_id("sub"), "object": "subscription", "customer": session["customer"],
            "status": "active", "cancel_at_period_end": False, "metadata": metadata,
            "currency": price["currency"], "livemode": False, "created": start,
            "items": {"object": "list", "data": [{
                "id": stripe_id("si"), "object": "subscription_item", "quantity": 1,
                "current_period_start": start, "current_period_end": start + MONTH,
                "price": {"id": stripe_id("price"), "object": "price",
                          "product": stripe_id("prod"), "currency": price["currency"],
                          "unit_amount": int(price["unit_amount"]),
                          "recurring": {"interval": price["recurring"]["interval"]}},
            }]},
        }
        self.subscriptions[subscription["id"]] = subscription
        invoice = self.invoice(subscription, "subscription_create", start)
        subscription["latest_invoice"] = invoice["id"]
        return subscription, invoice

    def invoice(
        self, subscription: dict[str, Any], reason: str, start: int, paid: bool = True
    ) -> dict[str, Any]:
        """An invoice of the subscription for the period starting at `start` (API 2025-03-31+
        shape: the subscription under parent.subscription_details)."""
        item = subscription["items"]["data"][0]
        amount = item["price"]["unit_amount"]
        invoice = {
            "id": stripe_id("in"), "object": "invoice", "customer": subscription["customer"],
            "currency": item["price"]["currency"], "billing_reason": reason,
            "status": "paid" if paid else "open", "amount_due": amount,
            "amount_paid": amount if paid else 0, "total": amount,
            "attempt_count": 1, "livemode": False, "created": start, "metadata": {},
            "period_start": start, "period_end": start,
            "parent": {"type": "subscription_details", "quote_details": None,
                       "subscription_details": {"subscription": subscription["id"],
                                                "metadata": subscription["metadata"]}},
            "lines": {"object": "list", "data": [{
                "id": stripe_id("il"), "object": "line_item", "amount": amount,
                "currency": item["price"]["currency"],
                "period": {"start": start, "end": start + MONTH},
            }]},
        }
        self.invoices[invoice["id"]] = invoice
        return invoice

    # Delivering webhooks

    def deliver(self, url: str, payload: bytes, header: str | None = None) -> httpx.Response:
        """POST one event to our webhook endpoint, signed as Stripe signs it (or with
        `header` as given, to try a forged one)."""
        signature = sign(payload, self.webhook_secret) if header is None else header
        return httpx.post(url, content=payload, timeout=30, headers={
            "Content-Type": "application/json; charset=utf-8",
            "Stripe-Signature": signature,
            "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        })

    def received(self, method: str, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.requests if r.method == method and r.path == path]


def error(kind: str, message: str, **extra: str) -> dict[str, Any]:
    return {"error": {"type": kind, "message": message, **extra}}


def public(obj: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if not key.startswith("_")}


def event(event_type: str, obj: dict[str, Any], event_id: str | None = None) -> bytes:
    """A Stripe event body (a snapshot event) around `obj`."""
    return json.dumps({
        "id": event_id or stripe_id("evt"), "object": "event", "api_version": API_VERSION,
        "created": int(time.time()), "livemode": False, "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "type": event_type, "data": {"object": obj},
    }).encode()


def _handler(server: StripeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, answer = server.handle(method, self.path, headers, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", f"req_{secrets.token_hex(7)}")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            self._answer("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._answer("POST")

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return Handler


@contextmanager
def stripe_server(secret_key: str, webhook_secret: str) -> Iterator[StripeServer]:
    """The server on 127.0.0.1 on a free port, in a thread; stopped on exit."""
    state = StripeServer(secret_key, webhook_secret)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
