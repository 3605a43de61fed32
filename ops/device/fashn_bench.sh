#!/usr/bin/env bash
# FASHN's engine bench on a lent GPU machine (issue 35 section 4), one command per part.
#
# Here first (this machine reaches PyPI, the GPU box reaches nothing):
#   bash ops/device/fashn_bench.sh prepare
# puts the wheels the GPU box lacks into .whl/ (torchao for FP8; diffusers, mediapipe and
# protobuf 4 for the whole engine call) and the two fixture photos into .fixtures/, both ignored
# by git (.git/info/exclude). Then, with the device tool, each part in one call (a part ends
# inside 8 minutes; run the second within the machine's warm window or it rebuilds the weights):
#   run(command="bash ops/device/fashn_bench.sh a", carry=[".whl", ".fixtures"], timeout_s=560)
#   run(command="bash ops/device/fashn_bench.sh b", carry=[".whl", ".fixtures"], timeout_s=560)
# Part a: the reference at batches 1,2,4,8, what should keep the output (SDPA flash and cuDNN,
# torch.compile, CUDA graphs) at batches 1 and 4, and the whole engine call at 1 and 4 at once.
# Part b: the faster settings (FP8, FP8 + compile, fewer steps, guidance skipped on some steps)
# against the reference at batches 1 and 4. Each writes $OUT/fashn_bench_<part>.json, .md and
# .log (the JSON after every setting, so a run stopped by its time limit keeps what it measured).
# Sized from estimates, not measurements: about 7 and 4 minutes on an H100-class GPU. Other
# settings (sdpa-efficient, sdpa-math, steps-20-guidance-first-8) by FASHN_BENCH_EXTRA.
# The weights are full-size and random (ops/engine_bench/build.py: the published
# model.safetensors cannot be fetched there either), built once in /tmp/fashn-weights
# ($FASHN_WEIGHTS_DIR). A dry run of the flow on this machine (tiny set, one setting):
#   PATH=$PWD/.venv-imaging/bin:$PATH FASHN_WEIGHTS_DIR=<a tiny set> OUT=/tmp/dry \
#     FASHN_BENCH_EXTRA="--settings reference --batches 1 --latency-runs 1 --size 48x64" \
#     bash ops/device/fashn_bench.sh a
set -euo pipefail
cd "$(dirname "$0")/../.."
part="${1:-a}"

if [ "$part" = prepare ]; then
    mkdir -p .git/info
    for path in /.whl/ /.fixtures/; do
        grep -qxF "$path" .git/info/exclude 2>/dev/null || echo "$path" >> .git/info/exclude
    done
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d .whl \
        $(grep -o '^[A-Za-z0-9_.-]*==[^ ]*' requirements-gpu-bench.txt) \
        diffusers==0.42.1 mediapipe==0.10.14 protobuf==4.25.9
    photos="${FIXTURES_DIR:-../shared/fixtures/images}"
    mkdir -p .fixtures/garments .fixtures/catalog-models
    cp "$photos/garments/00055_00.jpg" .fixtures/garments/
    cp "$photos/catalog-models/model-1.jpg" .fixtures/catalog-models/
    du -sh .whl .fixtures
    exit 0
fi

out="${OUT:-out/device}"
mkdir -p "$out"
export FIXTURES_DIR="${FIXTURES_DIR:-$PWD/.fixtures}" PYTHONUNBUFFERED=1
# Two install folders: torchao and diffusers beside the box's own packages, and mediapipe with
# the protobuf 4 it needs, which would shadow the box's newer protobuf that its onnx (the tiny
# set's ONNX twins are written with it) imports; so the weights are built without the second.
if [ ! -d /tmp/site ] && compgen -G ".whl/*.whl" > /dev/null; then
    tools=() analysis=()
    for wheel in .whl/*.whl; do
        case "$(basename "$wheel")" in
            mediapipe-*|protobuf-*) analysis+=("$wheel") ;;
            *) tools+=("$wheel") ;;
        esac
    done
    pip_install() { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
        --upgrade --target "$@"; }
    [ ${#tools[@]} -eq 0 ] || pip_install /tmp/site "${tools[@]}"
    [ ${#analysis[@]} -eq 0 ] || pip_install /tmp/site-analysis "${analysis[@]}"
fi
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python3 -c "import torch; print('torch', torch.__version__, torch.cuda.get_device_name())" \
      || true
} | tee "$out/fashn_bench_$part.env"
weights="${FASHN_WEIGHTS_DIR:-/tmp/fashn-weights}"
if [ ! -f "$weights/fashn/model.safetensors" ]; then
    PYTHONPATH="/tmp/site:$PWD" python3 -c "import sys; from pathlib import Path
from ops.engine_bench.build import build_fashn_full
build_fashn_full(Path(sys.argv[1]))" "$weights" 2>&1 | tee -a "$out/fashn_bench_$part.log"
fi
export PYTHONPATH="/tmp/site:/tmp/site-analysis:$PWD"

common=(--weights "$weights" --latency-runs 5 --repeats 2 --other-batches 1,4
        --compile-limit 240 --out "$out/fashn_bench_$part.json"
        --markdown "$out/fashn_bench_$part.md")
case "$part" in
    a) args=(--batches 1,2,4,8 --settings reference,sdpa-flash,sdpa-cudnn,compile,cuda-graphs) ;;
    b) args=(--batches 1,4 --no-end-to-end
             --settings reference,fp8,fp8-compile,steps-20,steps-15,guidance-first-10,guidance-every-2) ;;
    *) echo "usage: $0 prepare|a|b" >&2; exit 2 ;;
esac
# FASHN_BENCH_EXTRA: more options, after these (a later one wins), e.g. for a dry run on a CPU.
# shellcheck disable=SC2086
timeout "${BENCH_LIMIT:-500}" python3 -m ops.engine_bench "${common[@]}" "${args[@]}" \
    ${FASHN_BENCH_EXTRA:-} 2>&1 \
    | tee -a "$out/fashn_bench_$part.log"
