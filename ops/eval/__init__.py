"""`make eval` (`python -m ops.eval`): both operations over the fixture photos, as contact
sheets and tables to look at (main.py says what it writes). One module per concern: the cases,
running one, the people-wild scores, a baseline revision's engine, the sheets and the tables."""
