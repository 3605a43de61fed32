"""`python -m ops.bench`: see ops/bench/run.py."""

from ops.bench.run import main

main()
