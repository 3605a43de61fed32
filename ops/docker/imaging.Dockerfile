# The GPU imaging worker (ENGINE=diffusion, issue 21): the same code as app.Dockerfile with the
# imaging environment (requirements-imaging.txt: requirements.lock + torch, diffusers) instead of the
# API's. torch comes from PyTorch's CUDA wheel index (its CUDA runtime is inside the wheel, so the
# host needs only an NVIDIA driver and the NVIDIA Container Toolkit; compose's `imaging-gpu` service
# reserves the GPU). The weights are not in the image: mount a folder written by
# `python -m ops.weights fetch` (or `tiny`) at /weights, read-only.
#   docker build -f ops/docker/imaging.Dockerfile -t metamodel-imaging .
#   docker run --gpus 1 -v /srv/weights:/weights:ro -e TEMPORAL_ADDRESS=… -e DATABASE_URL=… \
#       -e S3_ENDPOINT=… -e S3_ACCESS_KEY=… -e S3_SECRET_KEY=… metamodel-imaging
FROM python:3.11-slim
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
# The CUDA build of requirements-imaging.txt's exact torch version (a build argument, so a host
# with another CUDA driver can pick another wheel index, e.g. .../whl/cu126).
ARG TORCH_INDEX=https://download.pytorch.org/whl/cu128
COPY requirements.lock requirements-imaging.txt ./
RUN pip install --no-cache-dir --extra-index-url "$TORCH_INDEX" -r requirements-imaging.txt
COPY core core
COPY api api
COPY activities activities
COPY workflows workflows
COPY engine engine
COPY payments payments
COPY ops ops
COPY migrations migrations
COPY alembic.ini .
ENV PYTHONUNBUFFERED=1 \
    ENGINE=diffusion \
    ENGINE_WEIGHTS_DIR=/weights
VOLUME /weights
CMD ["python", "-m", "ops.worker", "--queues", "imaging"]
