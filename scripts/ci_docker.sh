#!/usr/bin/env bash
# CI: a Docker engine and the toolchain images, so the docker sandbox tests run for real.
#   scripts/ci_docker.sh          install docker.io + debootstrap, start dockerd, build the hls and rtl images
#   scripts/ci_docker.sh --test   the same, then run the docker sandbox tests
# Needs root on Debian 12. No image registry is needed: the root image is made with debootstrap from
# the Debian mirror apt uses, and the Dockerfiles build on it.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends docker.io debootstrap >/dev/null
fi

engine_up() { timeout 10 docker version >/dev/null 2>&1; }

start_dockerd() {
  # Try the engine's defaults first, then what nested or unprivileged machines often need.
  local attempt
  for attempt in "" "--storage-driver=vfs" "--storage-driver=vfs --iptables=false --ip-masq=false"; do
    echo "ci_docker: starting dockerd ${attempt:-(defaults)}"
    # shellcheck disable=SC2086
    nohup dockerd $attempt >/var/log/dockerd.log 2>&1 &
    local pid=$!
    for _ in $(seq 1 60); do
      if engine_up; then
        echo "$attempt" >/var/run/hwrepair-dockerd-flags
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    tail -5 /var/log/dockerd.log || true
  done
  echo "ci_docker: dockerd does not start here; see /var/log/dockerd.log" >&2
  return 1
}

engine_up || start_dockerd
docker version --format 'ci_docker: engine {{.Server.Version}}, API {{.Server.APIVersion}}'

./dev setup
# Build containers need the network for apt; without the engine's own NAT, they use the host's.
network=()
if grep -q -- "--iptables=false" /var/run/hwrepair-dockerd-flags 2>/dev/null; then
  network=(--network host)
fi
.venv/bin/python -m pytest_hwrepair.sandbox.docker.images build "${network[@]}"
.venv/bin/python -m pytest_hwrepair.sandbox.docker.images list

if [ "${1:-}" = "--test" ]; then
  .venv/bin/pytest tests/sandbox/docker -n 2 -p no:randomly
  # The gaming suite against real containers (each attack's docker variant).
  .venv/bin/pytest tests/gaming/test_hls.py tests/gaming/test_agent.py tests/gaming/test_cuda_rtl.py -k docker \
    -p no:randomly
fi
