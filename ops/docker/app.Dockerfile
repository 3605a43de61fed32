# The Python image for the API, the workers (orchestration, and imaging with ENGINE=cpu) and the
# one-shot migration: the same code, another command (docker-compose.yml).
#   docker build -f ops/docker/app.Dockerfile -t metamodel-app .
# BASE is the public image by default; ops/deploy/build-images.sh passes a local stand-in built
# from Debian's packages where no registry can be reached. Only BASE differs between the two.
ARG BASE=python:3.11-slim-bookworm

# The virtual environment: requirements.lock only (the runtime set; test and lint tools are in
# requirements-dev.lock), every package a wheel, so no compiler is needed even here.
FROM ${BASE} AS build
RUN python3 -m venv /opt/venv
# The secret `ca` (optional): a CA bundle for PyPI where the build's network needs one
# (`--secret id=ca,src=...`); without it pip uses its own, as anywhere else. Then out of the
# image, as nothing runs them: mediapipe's jax (only its LLM weight converter,
# mediapipe.tasks.python.genai, imports it; 360 MB with jaxlib and their two own dependencies)
# and pip itself. setuptools stays: OpenTelemetry's instrumentation imports pkg_resources.
COPY requirements.lock /tmp/requirements.lock
RUN --mount=type=secret,id=ca \
    if [ -f /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi; \
    /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --only-binary=:all: \
        -r /tmp/requirements.lock \
    && /opt/venv/bin/pip uninstall -y -q jax jaxlib ml_dtypes opt_einsum pip

FROM ${BASE}
# OpenCV's bundled Qt (mediapipe needs opencv-contrib-python, not the headless build) links
# against libGL, X11 and GLib even when nothing is drawn. libGL and libGLX (GLVND) only load a GL
# driver when a context is made, which never happens here, so they come alone out of their Debian
# packages: installing libgl1 would pull Mesa and LLVM with it (270 MB).
# The app runs as `app`, writing only to data/ (Settings.data_dir: e.g. its kept secrets when
# none are given, which production refuses).
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
    MPLCONFIGDIR=/tmp/matplotlib
WORKDIR /app
# Code last, so that a code change rebuilds only these layers.
COPY alembic.ini ./
COPY migrations migrations
COPY core core
COPY payments payments
COPY engine engine
COPY activities activities
COPY workflows workflows
COPY api api
COPY ops ops
USER app
CMD ["python", "-m", "ops.worker"]
