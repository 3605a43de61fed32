"""The local test-mode provider: the embedded default (`make run`) and the tests' provider.

Its checkout is hosted by our own app at /pay/test/{sessionId}: the order, a TEST MODE banner,
a card field, Pay and Cancel. Paying sends a webhook shaped and signed exactly like Stripe's
(`Stripe-Signature`, core.billing.signature) to our webhook handling, in process, so the local
path runs the production code: the same signature check, event record, amount check and
fulfilment workflow.

Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
"""

from __future__ import annotations

import html
import json
import re
import secrets
import time
from typing import Any

from sqlalchemy import select, update

from core.billing import events, signature
from core.billing.money import format_amount
from core.billing.orders import CANCELED, failure_path, success_path
from core.billing.provider import CheckoutOrder, CheckoutSession, PaymentEvent, WebhookSink
from core.contracts.subscription import ChargeOutcome, PlanTerms
from core.db import SessionFactory
from core.enums import OrderStatus
from core.errors import InvalidInput, NotFound
from core.models.billing import Order
from core.settings import Settings

NAME = "local"
SUCCEEDS = "4242424242424242"
DECLINED = "4000000000000002"
DECLINE_MESSAGE = "Your card was declined."
TEST_CARDS = (
    "Use a test card: 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined)."
)
API_VERSION = "2024-06-20"
# The card on file of a monthly plan paid with a test card: a token named like Stripe's test
# payment methods. A renewal charges it (`charge_card_on_file`); a subscription whose card is
# switched to DECLINED_TOKEN (replace_card_on_file in core.billing.subscriptions) is declined.
CARD_TOKENS = {SUCCEEDS: "pm_card_visa", DECLINED: "pm_card_visa_chargeDeclined"}
SUCCEEDS_TOKEN = CARD_TOKENS[SUCCEEDS]
DECLINED_TOKEN = CARD_TOKENS[DECLINED]
# Why `update_subscription` has nothing to do here.
BILLS_THROUGH_WORKFLOW = (
    "The local provider keeps no subscriptions of its own: the subscription's workflow bills "
    "it (charge_card_on_file), so the workflow's state is all there is to change."
)


def _id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def event_envelope(event_type: str, obj: dict[str, Any], event_id: str | None = None) -> bytes:
    """A Stripe-shaped event body."""
    return json.dumps({
        "id": event_id or _id("evt_test"),
        "object": "event",
        "api_version": API_VERSION,
        "created": int(time.time()),
        "livemode": False,
        "type": event_type,
        "data": {"object": obj},
    }, separators=(",", ":")).encode()


def _metadata(order: Order) -> dict[str, str]:
    return {"orderId": order.id, "planId": order.plan_id, "rateCode": order.rate_code,
            "credits": str(order.credits)}


def checkout_session_object(order: Order, status: str, payment_id: str | None) -> dict[str, Any]:
    return {
        "id": order.provider_session_id,
        "object": "checkout.session",
        "amount_total": order.amount,
        "amount_subtotal": order.amount,
        "currency": order.currency.lower(),
        "client_reference_id": order.id,
        "metadata": _metadata(order),
        "mode": "payment",
        "payment_intent": payment_id,
        "payment_status": "paid" if status == "complete" else "unpaid",
        "status": status,
        "livemode": False,
    }


def completed_event(order: Order, event_id: str | None = None) -> bytes:
    obj = checkout_session_object(order, "complete", _id("pi_test"))
    return event_envelope(events.CHECKOUT_COMPLETED, obj, event_id)


def declined_event(order: Order) -> bytes:
    return event_envelope(events.PAYMENT_FAILED, {
        "id": _id("pi_test"),
        "object": "payment_intent",
        "amount": order.amount,
        "currency": order.currency.lower(),
        "metadata": {**_metadata(order), "checkoutSessionId": order.provider_session_id or ""},
        "status": "requires_payment_method",
        "last_payment_error": {"type": "card_error", "code": "card_declined",
                               "decline_code": "generic_decline", "message": DECLINE_MESSAGE},
        "livemode": False,
    })


def expired_event(order: Order) -> bytes:
    return event_envelope(events.CHECKOUT_EXPIRED, checkout_session_object(order, "expired", None))


def charge_card_on_file(card: str | None, amount: int, currency: str) -> ChargeOutcome:
    """Charge a subscription's period to its card on file (test mode: no money moves). The
    success card's token is paid, anything else is declined."""
    if card == SUCCEEDS_TOKEN and amount >= 0 and currency:
        return ChargeOutcome(paid=True, payment_id=_id("pi_test"))
    if card is None:
        return ChargeOutcome(paid=False, reason="There is no card on file.")
    return ChargeOutcome(paid=False, reason=DECLINE_MESSAGE)


class LocalProvider:
    name = NAME

    def __init__(self, settings: Settings, sessions: SessionFactory, sink: WebhookSink) -> None:
        self.settings = settings
        self.sessions = sessions
        self.sink = sink

    def create_checkout(self, order: CheckoutOrder) -> CheckoutSession:
        session_id = _id("cs_test")
        return CheckoutSession(session_id, f"{self.settings.app_url}/pay/test/{session_id}")

    def parse_webhook(self, payload: bytes, signature_header: str | None) -> PaymentEvent:
        signature.verify(payload, signature_header, self.settings.payment_webhook_secret)
        return events.parse_event(payload)

    def update_subscription(
        self,
        provider_subscription_id: str,
        *,
        cancel_at_period_end: bool | None = None,
        price: PlanTerms | None = None,
        upgrade: bool = False,
    ) -> str | None:
        """Nothing to tell: see BILLS_THROUGH_WORKFLOW (an upgrade's difference is charged to
        the card on file by the workflow's update, `charge_card_on_file`)."""
        return BILLS_THROUGH_WORKFLOW

    # The hosted test checkout

    def _order(self, session_id: str) -> Order:
        with self.sessions() as session:
            order = session.execute(
                select(Order).where(
                    Order.provider == NAME, Order.provider_session_id == session_id
                )
            ).scalar_one_or_none()
        if order is None:
            raise NotFound("That checkout was not found.")
        return order

    def _send(self, payload: bytes) -> None:
        """Deliver the webhook as the provider would: signed with the webhook secret."""
        self.sink(payload, signature.sign(payload, self.settings.payment_webhook_secret))

    def _after(self, order: Order) -> str:
        if order.status == OrderStatus.PAID:
            return success_path(order.id)
        if order.status in (OrderStatus.CANCELED, OrderStatus.EXPIRED):
            return failure_path(order.id, order.failure_reason or CANCELED)
        return failure_path(order.id, order.failure_reason or DECLINE_MESSAGE)

    def pay(self, session_id: str, card: str) -> str:
        order = self._order(session_id)
        if order.status != OrderStatus.PENDING:
            return self._after(order)
        number = re.sub(r"[\s-]", "", card)
        if number == SUCCEEDS:
            self._keep_card(order, number)
            self._send(completed_event(order))
            return success_path(order.id)
        if number == DECLINED:
            self._send(declined_event(order))
            return failure_path(order.id, DECLINE_MESSAGE)
        raise InvalidInput(TEST_CARDS)

    def _keep_card(self, order: Order, number: str) -> None:
        """The card a checkout was paid with: a monthly plan's card on file."""
        with self.sessions.begin() as session:
            session.execute(
                update(Order)
                .where(Order.id == order.id)
                .values(payment_method=CARD_TOKENS[number])
                .execution_options(synchronize_session=False)
            )

    def cancel(self, session_id: str) -> str:
        order = self._order(session_id)
        if order.status != OrderStatus.PENDING:
            return self._after(order)
        self._send(expired_event(order))
        return failure_path(order.id, CANCELED)

    def checkout_page(self, session_id: str, error: str | None = None) -> str:
        order = self._order(session_id)
        done = order.status != OrderStatus.PENDING
        action = f"/pay/test/{html.escape(session_id)}"
        what = "one-time credit pack" if order.interval == "once" else "monthly plan"
        body = (
            f'<p class="done">This checkout is already {html.escape(order.status)}.</p>'
            if done else f"""
      <form method="post" action="{action}">
        <label for="card">Card number</label>
        <input id="card" name="card" inputmode="numeric" autocomplete="off" required
               placeholder="4242 4242 4242 4242" maxlength="32" autofocus>
        {f'<p class="error" role="alert">{html.escape(error)}</p>' if error else ''}
        {'' if error == TEST_CARDS else f'<p class="hint">{html.escape(TEST_CARDS)}</p>'}
        <div class="actions">
          <button type="submit" name="action" value="pay" class="pay">Pay
            {html.escape(format_amount(order.amount, order.currency))}</button>
          <button type="submit" name="action" value="cancel" formnovalidate
                  class="cancel">Cancel</button>
        </div>
      </form>"""
        )
        return PAGE.format(
            plan=html.escape(order.plan_name),
            what=what,
            credits=order.credits,
            amount=html.escape(format_amount(order.amount, order.currency)),
            currency=html.escape(order.currency),
            order_id=html.escape(order.id),
            body=body,
        )


PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>TEST MODE checkout · MetaModel</title>
  <style>
    body {{ margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f4f6;
           color: #1d1d22; }}
    .banner {{ background: #f5a623; color: #1d1d22; text-align: center; font-weight: 700;
               padding: 8px; letter-spacing: .08em; }}
    main {{ max-width: 420px; margin: 32px auto; padding: 24px; background: #fff;
            border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }}
    h1 {{ font-size: 20px; margin: 0 0 4px; }}
    .amount {{ font-size: 28px; font-weight: 700; margin: 12px 0; }}
    dl {{ display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 20px; }}
    dt {{ color: #666; }}
    dd {{ margin: 0; min-width: 0; overflow-wrap: anywhere; }}
    label {{ display: block; font-weight: 600; margin-bottom: 4px; }}
    input {{ width: 100%; box-sizing: border-box; padding: 10px; font-size: 16px;
             border: 1px solid #bbb; border-radius: 8px; }}
    .hint {{ color: #666; font-size: 13px; }}
    .error {{ color: #b00020; font-weight: 600; }}
    .actions {{ display: flex; gap: 8px; }}
    button {{ flex: 1; padding: 10px; font-size: 16px; border-radius: 8px; cursor: pointer;
              border: 1px solid #5b4bdb; }}
    .pay {{ background: #5b4bdb; color: #fff; }}
    .cancel {{ background: #fff; color: #5b4bdb; }}
    @media (max-width: 480px) {{ main {{ margin: 16px; padding: 16px; }} }}
  </style>
</head>
<body>
  <div class="banner" role="status">TEST MODE · no real payment is taken</div>
  <main>
    <h1>{plan}</h1>
    <div>{what}</div>
    <div class="amount">{amount}</div>
    <dl>
      <dt>Credits</dt><dd>{credits}</dd>
      <dt>Currency</dt><dd>{currency}</dd>
      <dt>Order</dt><dd><code>{order_id}</code></dd>
    </dl>
    {body}
  </main>
</body>
</html>
"""
