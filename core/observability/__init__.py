"""What operators see of the running product: structured logs (logs), metrics (metrics),
traces (tracing, trace_file), error reports (error_reports), and their set-up once per process
(setup)."""
