"""The money side: the plans catalogue, checkout orders, payment webhooks and their fulfilment,
and the hourly reconciliation of the money rules against the database (reconciliation.py).

Providers are behind `provider.PaymentProvider`; adapters live in the top-level `payments/`
package and are chosen by PAYMENT_PROVIDER in the composition roots.
"""
