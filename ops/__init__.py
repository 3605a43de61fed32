"""Running the product: the worker, the embedded stack, seeding, benchmarks."""
