"""Generations: submitting one (submit.py) with its plan, the work its workflow does decided once
(plan.py), starting its workflow (start.py), reading them back (read.py), and starting late or
giving up on those whose workflow never started (sweep.py); what one costs and how its charge is
shared by its images (prices.py); its and its images' state changes and the completion mail
(tasks.py). The rules live here; the routers in api/routers/services.py parse, call and shape,
and the workflow's activities reuse the queries.

A generation is recorded here and run by its workflow (workflow id = generation id), which
charges it once. Errors are domain errors (core/errors.py).
"""
