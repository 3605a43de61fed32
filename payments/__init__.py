"""Payment provider adapters (the interface is core.billing.provider.PaymentProvider).

`build_provider` is what the composition roots use: PAYMENT_PROVIDER picks the adapter.
"""

from __future__ import annotations

from core.billing.provider import PaymentProvider, WebhookSink
from core.db import SessionFactory
from core.settings import Settings
from payments.local import LocalProvider


def build_provider(
    settings: Settings, sessions: SessionFactory, sink: WebhookSink
) -> PaymentProvider:
    if settings.payment_provider == "local":
        return LocalProvider(settings, sessions, sink)
    if settings.payment_provider == "stripe":
        # Imported only when chosen: the embedded default never loads the SDK.
        from payments.stripe import StripeProvider

        return StripeProvider(settings, sessions)
    raise ValueError(f"unknown PAYMENT_PROVIDER {settings.payment_provider!r}")
