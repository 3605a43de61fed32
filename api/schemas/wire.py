"""Wire names of inside types: an enum the code calls by its own name keeps, in the OpenAPI
document, the schema name and description the product specification and clients know.

Pydantic names an enum's schema after its class; `wire_enum` gives it another name, so the
code says `GenerationKind` and the document still says `Service` (issue 38 item 1: one name
inside, the wire's names at the edge). Use the alias in every API schema and route parameter
that carries the enum: a bare `GenerationKind` there would add a second schema to the document
(the OpenAPI document is committed and must stay byte-identical).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import GetPydanticSchema
from pydantic_core import core_schema

from core.enums import GenerationKind


def wire_enum(enum: type[StrEnum], name: str, description: str) -> GetPydanticSchema:
    """The enum's schema under `name`; values validate and serialise as the enum's own."""
    updates = {"title": name, "description": description}

    def json_schema(schema: core_schema.CoreSchema, handler: Any) -> Any:
        found = handler(schema)
        handler.resolve_ref_schema(found).update(updates)
        return found

    def core(_source: Any, _handler: Any) -> core_schema.CoreSchema:
        return core_schema.enum_schema(
            enum,
            list(enum),
            sub_type="str",
            ref=f"{name}:wire",
            metadata={"pydantic_js_functions": [json_schema]},
        )

    return GetPydanticSchema(core)


# A generation's kind: "service" on /imageedit and /api/v1 (the spec's name). Type checkers
# see the enum itself; at run time the annotation's type is `object` because FastAPI collects
# every Enum class it finds in a route's annotations and would document `GenerationKind` too.
# The values are GenerationKind's members either way (wire_enum's schema validates into them).
if TYPE_CHECKING:
    Service = GenerationKind
else:
    Service = Annotated[
        object,
        wire_enum(
            GenerationKind, "Service", 'What a generation does (a "service" in /imageedit).'
        ),
    ]
