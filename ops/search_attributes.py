"""Register our search attributes (core/workflow_search.py) in the worker's namespace.

The embedded dev server has them from its start (`--search-attribute`, ops/stack.py); on a
cluster the orchestration worker adds whichever are missing when it starts, if it may (a
cluster that keeps namespace changes to its operators needs the README's `temporal operator
search-attribute create` commands instead). A workflow that sets an attribute the namespace
does not know fails its workflow task, so the worker says loudly what is missing.
"""

from __future__ import annotations

import logging

from temporalio.api.enums.v1 import IndexedValueType
from temporalio.api.operatorservice.v1 import (
    AddSearchAttributesRequest,
    ListSearchAttributesRequest,
)
from temporalio.client import Client
from temporalio.service import RPCError

from core.workflow_search import SEARCH_ATTRIBUTES

log = logging.getLogger(__name__)


async def missing_search_attributes(
    client: Client, namespace: str
) -> dict[str, IndexedValueType.ValueType]:
    """Ours that the namespace does not have: name → IndexedValueType."""
    known = await client.operator_service.list_search_attributes(
        ListSearchAttributesRequest(namespace=namespace)
    )
    have = set(known.custom_attributes) | set(known.system_attributes)
    return {
        key.name: IndexedValueType.ValueType(int(key.indexed_value_type))
        for key in SEARCH_ATTRIBUTES
        if key.name not in have
    }


async def ensure_search_attributes(client: Client, namespace: str) -> list[str]:
    """Add the missing ones; returns the names still missing (none when all is well)."""
    try:
        missing = await missing_search_attributes(client, namespace)
        if not missing:
            return []
        await client.operator_service.add_search_attributes(
            AddSearchAttributesRequest(namespace=namespace, search_attributes=missing)
        )
        log.info("registered search attributes %s", ", ".join(sorted(missing)))
        return []
    except RPCError as error:
        names = [key.name for key in SEARCH_ATTRIBUTES]
        log.error(
            "could not register the search attributes %s in namespace %s (%s): generation "
            "workflows fail until they exist; see the README (Temporal UI for operators)",
            ", ".join(names), namespace, error.message,
        )
        return names
