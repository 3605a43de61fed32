from __future__ import annotations

import sys

from ops.engine_bench.cli import main

sys.exit(main())
