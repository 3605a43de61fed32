"""`python -m ops.eval`: see ops/eval/main.py."""

from ops.eval.main import main

main()
