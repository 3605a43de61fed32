"""What operators see of our workflows in the Temporal UI: search attributes and summaries.

Every generation workflow carries the search attributes below (set when it is started, and
upserted by the workflow once its charge and its final status are known), so an operator can
filter e.g. `MmService='bodySwap' AND MmStatus='failed' AND MmAccountId='…'` in the UI or with
`temporal workflow list --query`. Subscription workflows carry the account, the plan and their
status. They must be registered in the namespace before any workflow uses them: the embedded
dev server registers them at start (`ops/stack.py`), the orchestration worker adds any that are
missing at start-up (`ensure_search_attributes`), and the README lists the `temporal operator
search-attribute create` commands for a cluster whose workers may not change its namespace.

Only two Int attributes: Temporal's SQL visibility stores (PostgreSQL, MySQL, SQLite) have
three Int slots per namespace, and the auto-setup image takes one for its own example.

Workflow code imports this module (passed through the sandbox): plain constants and pure
functions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from temporalio.common import (
    SearchAttributeIndexedValueType,
    SearchAttributeKey,
    SearchAttributePair,
    SearchAttributeUpdate,
    TypedSearchAttributes,
)

# Keywords
ACCOUNT_ID = SearchAttributeKey.for_keyword("MmAccountId")
ACCOUNT_KIND = SearchAttributeKey.for_keyword("MmAccountKind")  # guest | user | demo
SERVICE = SearchAttributeKey.for_keyword("MmService")  # bodySwap | burstreplace
DISTRIBUTOR_ID = SearchAttributeKey.for_keyword("MmDistributorId")
# A generation's: queued → running (charged) → completed | failed. A subscription's: active |
# past_due | canceled.
STATUS = SearchAttributeKey.for_keyword("MmStatus")
PLAN = SearchAttributeKey.for_keyword("MmPlan")  # a subscription's plan name
# Ints
IMAGE_COUNT = SearchAttributeKey.for_int("MmImageCount")
# What the account paid for the generation: the charge, less what failed images gave back once
# the generation has finished.
CREDITS_CHARGED = SearchAttributeKey.for_int("MmCreditsCharged")

SEARCH_ATTRIBUTES: tuple[SearchAttributeKey[str] | SearchAttributeKey[int], ...] = (
    ACCOUNT_ID,
    ACCOUNT_KIND,
    SERVICE,
    DISTRIBUTOR_ID,
    STATUS,
    PLAN,
    IMAGE_COUNT,
    CREDITS_CHARGED,
)

# The type names of the Temporal CLI (`--search-attribute NAME=TYPE`, `--type TYPE`).
_CLI_TYPES = {
    SearchAttributeIndexedValueType.KEYWORD: "Keyword",
    SearchAttributeIndexedValueType.INT: "Int",
}


def cli_search_attributes() -> list[tuple[str, str]]:
    """(name, type) of each attribute, as `temporal server start-dev --search-attribute`
    and `temporal operator search-attribute create` take them."""
    return [(key.name, _CLI_TYPES[key.indexed_value_type]) for key in SEARCH_ATTRIBUTES]


# Generations


@dataclass(frozen=True)
class GenerationFacts:
    """What the starter knows of a generation (read from its row when it is started)."""

    account_id: str
    account_kind: str
    service: str
    image_count: int
    credits: int
    distributor_id: str


def generation_search_attributes(facts: GenerationFacts) -> TypedSearchAttributes:
    """The attributes a generation's workflow starts with (status queued, nothing charged)."""
    return TypedSearchAttributes(
        [
            SearchAttributePair(ACCOUNT_ID, facts.account_id),
            SearchAttributePair(ACCOUNT_KIND, facts.account_kind),
            SearchAttributePair(SERVICE, facts.service),
            SearchAttributePair(DISTRIBUTOR_ID, facts.distributor_id),
            SearchAttributePair(STATUS, "queued"),
            SearchAttributePair(IMAGE_COUNT, facts.image_count),
            SearchAttributePair(CREDITS_CHARGED, 0),
        ]
    )


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def generation_summary(facts: GenerationFacts) -> str:
    """One line for the workflow list, e.g. "bodySwap of 3 images for guest account 0af…"."""
    return (
        f"{facts.service} of {plural(facts.image_count, 'image')} "
        f"for {facts.account_kind} account {facts.account_id}"
    )


def generation_details(facts: GenerationFacts) -> str:
    """The workflow page's details (Markdown)."""
    return (
        f"**{facts.service}** of {plural(facts.image_count, 'image')}, priced "
        f"{plural(facts.credits, 'credit')} (reserved at submit, charged by the workflow).\n\n"
        f"Account `{facts.account_id}` ({facts.account_kind}), distributor "
        f"`{facts.distributor_id}`."
    )


def generation_progress_updates(
    account_id: str, service: str, image_count: int, status: str, credits_charged: int
) -> Sequence[SearchAttributeUpdate[Any]]:
    """What the workflow upserts once charged (status running) and when it ends: everything it
    knows, so a workflow started without attributes (an older starter) gets them too."""
    return [
        ACCOUNT_ID.value_set(account_id),
        SERVICE.value_set(service),
        IMAGE_COUNT.value_set(image_count),
        STATUS.value_set(status),
        CREDITS_CHARGED.value_set(credits_charged),
    ]


# Subscriptions


def subscription_updates(
    account_id: str, plan_name: str, status: str
) -> Sequence[SearchAttributeUpdate[Any]]:
    return [
        ACCOUNT_ID.value_set(account_id),
        PLAN.value_set(plan_name),
        STATUS.value_set(status),
    ]


def subscription_details(
    account_id: str, plan_name: str, status: str, period: int, cancel_at_period_end: bool
) -> str:
    """The subscription workflow's current details, as a sentence."""
    ending = ", ends at the end of this period" if cancel_at_period_end else ""
    return (
        f"{plan_name} subscription of account {account_id}: {status.replace('_', ' ')}, "
        f"period {period}{ending}."
    )
