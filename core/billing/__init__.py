"""The money side: the plans catalogue, checkout orders, payment webhooks and their fulfilment.

Providers are behind `provider.PaymentProvider`; adapters live in the top-level `payments/`
package and are chosen by PAYMENT_PROVIDER in the composition roots.
"""
