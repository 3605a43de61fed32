#!/usr/bin/env bash
# Builds our container images with podman on a machine that cannot reach an image registry
# (issue 34): first the local stand-ins for the public base images (ops/deploy/bases/, from
# Debian's packages on the mmdebstrap base that podman-setup.sh makes), then our images on them,
# with the machine's CA bundle as the build secret `ca` (pip and npm reach their registries only
# with it here). Prints each image's size and build time.
#   bash ops/deploy/build-images.sh             # the app and web images (what CI builds)
#   bash ops/deploy/build-images.sh --imaging   # also the CUDA imaging image (6.2 GB; about
#                                               # 4 GB of downloads; never in CI)
#   bash ops/deploy/build-images.sh --no-cache  # every step again, as on a fresh machine
# Elsewhere `docker build -f ops/docker/<name>.Dockerfile .` uses the public bases instead.
# Tags (docker-compose's override for the deploy check refers to them):
#   localhost/metamodel-app:latest      ops/docker/app.Dockerfile (api, workers, migrate, imaging on CPU)
#   localhost/metamodel-web:latest      ops/docker/web.Dockerfile (nginx and the built web app)
#   localhost/metamodel-imaging:latest  ops/docker/imaging.Dockerfile (--imaging only)
# Bases: localhost/metamodel-base-python:3.11, -node:20, -nginx:1.27. Podman's layer cache makes
# a rebuild with unchanged inputs take seconds; a code change rebuilds only the code layers.
set -euo pipefail
cd "$(dirname "$0")/../.."

imaging=false
options=()
for arg in "$@"; do
  case $arg in
    --imaging) imaging=true ;;
    --no-cache) options+=(--no-cache) ;;
    *) echo "usage: $0 [--imaging] [--no-cache]" >&2; exit 2 ;;
  esac
done

DEBIAN_BASE=${DEBIAN_BASE:-localhost/debian-base:bookworm}
PYTHON_BASE=localhost/metamodel-base-python:3.11
NODE_BASE=localhost/metamodel-base-node:20
NGINX_BASE=localhost/metamodel-base-nginx:1.27
APP_IMAGE=localhost/metamodel-app:latest
WEB_IMAGE=localhost/metamodel-web:latest
IMAGING_IMAGE=localhost/metamodel-imaging:latest
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
LOGS=${LOGS:-out/images}
mkdir -p "$LOGS"

podman image exists "$DEBIAN_BASE" || bash ops/deploy/podman-setup.sh
secret=()
[ -f "$CA_BUNDLE" ] && secret=(--secret "id=ca,src=$CA_BUNDLE")

# build TAG CONTAINERFILE CONTEXT [podman build options...]: one image, its log in $LOGS.
build() {
  local tag=$1 file=$2 context=$3 log start seconds size
  shift 3
  log="$LOGS/$(basename "${tag%%:*}").log"
  start=$(date +%s.%N)
  if ! podman build --file "$file" --tag "$tag" "${secret[@]}" "${options[@]}" "$@" "$context" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "build-images: $tag failed (whole log: $log)" >&2
    exit 1
  fi
  seconds=$(since "$start")
  size=$(podman image inspect --format '{{.Size}}' "$tag")
  printf '%-38s %7d MB %7.1f s\n' "$tag" "$((size / 1000000))" "$seconds"
}

# Seconds since a `date +%s.%N` time.
since() { awk -v start="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - start }'; }

total_start=$(date +%s.%N)
printf '%-38s %10s %9s\n' image size build
build "$PYTHON_BASE" ops/deploy/bases/python.Containerfile ops/deploy/bases --build-arg "BASE=$DEBIAN_BASE"
build "$NODE_BASE" ops/deploy/bases/node.Containerfile ops/deploy/bases --build-arg "BASE=$DEBIAN_BASE"
build "$NGINX_BASE" ops/deploy/bases/nginx.Containerfile ops/deploy/bases --build-arg "BASE=$DEBIAN_BASE"
build "$APP_IMAGE" ops/docker/app.Dockerfile . --build-arg "BASE=$PYTHON_BASE"
build "$WEB_IMAGE" ops/docker/web.Dockerfile . \
  --build-arg "NODE_BASE=$NODE_BASE" --build-arg "NGINX_BASE=$NGINX_BASE"
if $imaging; then
  build "$IMAGING_IMAGE" ops/docker/imaging.Dockerfile . --build-arg "BASE=$PYTHON_BASE"
fi
printf '%-38s %10s %7.1f s\n' "all" "" "$(since "$total_start")"
