# The GPU imaging worker (ENGINE=diffusion, issue 21): the same code and layout as app.Dockerfile
# with the imaging environment (requirements-imaging.txt: requirements.lock + torch, diffusers,
# onnxruntime -- here its GPU build)
# instead of the API's. PyPI's torch wheel for Linux x86_64 is the CUDA build, its CUDA runtime in
# the nvidia-* wheels beside it, so the host needs only an NVIDIA driver and the NVIDIA Container
# Toolkit; compose's `imaging-gpu` service reserves the GPU. The weights are not in the image:
# mount a folder written by `python -m ops.weights fetch` (or `tiny`) at /weights, read-only.
#   docker build -f ops/docker/imaging.Dockerfile -t metamodel-imaging .
#   docker run --gpus 1 -v /srv/weights:/weights:ro -e TEMPORAL_ADDRESS=… -e DATABASE_URL=… \
#       -e S3_ENDPOINT=… -e S3_ACCESS_KEY=… -e S3_SECRET_KEY=… metamodel-imaging
# BASE is the public image by default; ops/deploy/build-images.sh --imaging passes a local
# stand-in built from Debian's packages where no registry can be reached.
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS build
RUN python3 -m venv /opt/venv
# TORCH_INDEX (optional): another wheel index for the same torch version, e.g.
# https://download.pytorch.org/whl/cu126 for a host whose driver is older than PyPI's build needs.
# The secret `ca` (optional): a CA bundle where the build's network needs one. jax and pip leave
# as in app.Dockerfile; ml_dtypes stays (onnx imports it: `python -m ops.weights tiny`).
# DWPose runs on the GPU here: onnxruntime (the CPU build the requirements pin) is replaced by
# onnxruntime-gpu of the same version (one module, never both installed); its CUDA and cuDNN
# libraries are the nvidia-* wheels that torch brings (where they do not fit its build, onnxruntime
# falls back to the CPU and logs why; engine/diffusion/fashn/dwpose.py's DWPose.provider says which).
ARG TORCH_INDEX=
COPY requirements.lock requirements-imaging.txt /tmp/
RUN --mount=type=secret,id=ca \
    if [ -f /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi; \
    /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --only-binary=:all: \
        ${TORCH_INDEX:+--extra-index-url "$TORCH_INDEX"} -r /tmp/requirements-imaging.txt \
    && ORT_VERSION=$(sed -n 's/^onnxruntime==//p' /tmp/requirements-imaging.txt) \
    && /opt/venv/bin/pip uninstall -y -q onnxruntime \
    && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --only-binary=:all: \
        "onnxruntime-gpu==${ORT_VERSION}" \
    && /opt/venv/bin/pip uninstall -y -q jax jaxlib opt_einsum pip

FROM ${BASE}
# The same system libraries and user as app.Dockerfile (OpenCV's Qt: libGL alone, X11, GLib).
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends libglib2.0-0 libglvnd0 libx11-6 libxext6 \
    && mkdir /tmp/gl && cd /tmp/gl \
    && apt-get download -qq libgl1 libglx0 2>/dev/null \
    && for deb in *.deb; do dpkg-deb -x "$deb" .; done \
    && cp -a usr/lib/*/libGL.so.1* usr/lib/*/libGLX.so.0* /usr/local/lib/ && ldconfig \
    && cd / && rm -rf /tmp/gl /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
    && useradd --uid 10001 --user-group --no-create-home --home-dir /app --shell /usr/sbin/nologin app \
    && mkdir -p /app/data && chown app:app /app/data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MPLCONFIGDIR=/tmp/matplotlib \
    HF_HOME=/tmp/huggingface \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \
    ENGINE=diffusion \
    ENGINE_WEIGHTS_DIR=/weights
WORKDIR /app
COPY alembic.ini ./
COPY migrations migrations
COPY core core
COPY payments payments
COPY engine engine
COPY activities activities
COPY workflows workflows
COPY api api
COPY ops ops
VOLUME /weights
USER app
CMD ["python", "-m", "ops.worker", "--queues", "imaging"]
