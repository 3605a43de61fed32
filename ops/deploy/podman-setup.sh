#!/usr/bin/env bash
# Prepares this machine to build and run the production images with podman (issue 34), the way
# ../shared/guide/platform-facts.md ("Containers") found to work here: Debian's podman as root
# with runc and cgroupfs, and a Debian base image made locally with mmdebstrap, because no image
# registry can be reached from these machines. Idempotent: a second run only checks.
#   bash ops/deploy/podman-setup.sh
set -euo pipefail

BASE_IMAGE=${BASE_IMAGE:-localhost/debian-base:bookworm}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

if ! command -v podman >/dev/null || ! command -v mmdebstrap >/dev/null || ! command -v runc >/dev/null; then
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq podman runc mmdebstrap >/dev/null
fi

# crun (podman's default runtime) fails here ("cgroups in hybrid mode not supported", then
# setrlimit NOFILE/NPROC "Operation not permitted"); runc with cgroupfs and no default ulimits runs.
conf=/etc/containers/containers.conf
if ! grep -qs 'runtime = "runc"' "$conf"; then
  $SUDO mkdir -p /etc/containers
  $SUDO tee "$conf" >/dev/null <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
fi

# The base every local build starts from: Debian bookworm's minimal system and its CA
# certificates (about 110 s, 180 MB). Builds elsewhere pull the public images instead.
if ! $SUDO podman image exists "$BASE_IMAGE"; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  $SUDO mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$tmp/base.tar"
  $SUDO podman import --quiet "$tmp/base.tar" "$BASE_IMAGE" >/dev/null
fi
echo "podman $(podman --version | awk '{print $3}'), base image $BASE_IMAGE ready"
