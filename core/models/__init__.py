"""Table models, one module per area (request and response schemas live in api/schemas/).

Importing the package registers every table with `Base.metadata` (Alembic and the tests'
`create_all` read it), whichever module was asked for first.
"""

from core.models import (  # noqa: F401
    accounts,
    billing,
    catalog,
    generations,
    messages,
    webhooks,
)
