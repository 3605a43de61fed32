# The Python image for the API, the worker and the one-shot migration (same code, other command).
FROM python:3.11-slim
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.lock .
RUN pip install --no-cache-dir -r requirements.lock
COPY core core
COPY api api
COPY activities activities
COPY workflows workflows
COPY engine engine
COPY payments payments
COPY ops ops
COPY migrations migrations
COPY alembic.ini .
ENV PYTHONUNBUFFERED=1
