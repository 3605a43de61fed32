"""`make bench`: the speed figures, each beside its target (`python -m ops.bench`; run.py says
what each section measures). One module per section, with the stacks and helpers they share."""
