#!/usr/bin/env bash
# perfgate setup on a fresh Debian 12 machine: system packages (as root), a virtualenv with the pinned Python
# requirements, and (with --qemu) the QEMU arm64 virtual board image under build/qemu/.
set -euo pipefail
cd "$(dirname "$0")"
# the image build uses mkfs.ext4 and friends, which Debian keeps in /usr/sbin and /sbin (not on a plain user's PATH)
export PATH="$PATH:/usr/sbin:/sbin"

APT_PACKAGES=(
  # virtual boards: QEMU arm64 behind Debian's U-Boot, the image's contents, serial plumbing
  qemu-system-arm ipxe-qemu u-boot-qemu busybox-static dropbear-bin cpio socat ser2net device-tree-compiler
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross dpkg-dev
  # real tools, for parser captures and the QEMU board's workloads
  openssl fio iperf3 iperf rt-tests stress-ng time alsa-utils gstreamer1.0-tools gstreamer1.0-plugins-base libdrm-tests v4l-utils
  iproute2 ethtool
  glmark2-x11 xvfb xauth libgl1 libgl1-mesa-dri   # glmark2 on Mesa's llvmpipe under a virtual X server (tests/test_tools_glmark2.py)
  # the comparison report's browser test
  chromium chromium-driver
  python3-venv
)

if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${APT_PACKAGES[@]}"
  # netperf (real captures and tests/test_tools_netperf.py's live runs) is in Debian's non-free component, which
  # this machine's sources do not enable: apt fetches it through a private configuration (bookworm non-free only,
  # its lists and cache under build/; the system's sources untouched) and it is unpacked under build/netperf, off
  # PATH (Debian's build has no -b/-w rate control: the gate's UDP trials must not pick it up as the tester's netperf)
  if [ ! -x build/netperf/usr/bin/netperf ]; then
    apt_private=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$PWD/build/apt-non-free/parts"
                 -o Dir::State::Lists="$PWD/build/apt-non-free/lists" -o Dir::Cache="$PWD/build/apt-non-free/cache"
                 -o Dir::State::status=/dev/null)
    mkdir -p build/apt-non-free/parts build/apt-non-free/lists/partial build/apt-non-free/cache/archives/partial
    # the machine's own Debian archive and suite (the first entry of its deb822 sources), its non-free component
    sources=/etc/apt/sources.list.d/debian.sources
    archive=$(awk '/^URIs:/ {print $2; exit}' "$sources")
    suite=$(awk '/^Suites:/ {print $2; exit}' "$sources")
    printf '%s\n' "Types: deb" "URIs: $archive" "Suites: $suite" "Components: non-free" \
      "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" > build/apt-non-free/parts/non-free.sources
    apt-get "${apt_private[@]}" update -q
    (cd build/apt-non-free && apt-get "${apt_private[@]}" download netperf)
    dpkg -x build/apt-non-free/netperf_*.deb build/netperf
  fi
  # a real LAVA for the `lava` tests (tests/lavalab.py starts its daemons itself, no systemd): lava-server's
  # post-install creates and migrates its database, so PostgreSQL is installed and its cluster running first
  apt-get install -y -q --no-install-recommends postgresql
  pg_lsclusters -h | while read -r version cluster _port status _rest; do
    [ "$status" = online ] || pg_ctlcluster "$version" "$cluster" start
  done
  apt-get install -y -q --no-install-recommends lava-server lava-dispatcher lavacli
else
  echo "setup.sh: not root; make sure these Debian packages are installed: ${APT_PACKAGES[*]}" >&2
fi

PYTHON=${PYTHON:-python3}
# the SQUAD server the tests publish runs to (tests/squadserver.py): its own virtualenv, so that its Django and
# Celery pins never meet the gate's; offline_assets.py lets it start without fetching its web UI's scripts
[ -d .venv-squad ] || "$PYTHON" -m venv .venv-squad
.venv-squad/bin/pip install -q --upgrade pip
.venv-squad/bin/pip install -q -r tests/squad_server/requirements.txt
.venv-squad/bin/python tests/squad_server/offline_assets.py

[ -d .venv ] || "$PYTHON" -m venv .venv
# shellcheck disable=SC1091
. .venv/bin/activate
pip install -q --upgrade pip
pip install -q -r requirements.txt

if [ "${1:-}" = "--qemu" ]; then
  python -m perfgate qemu build
fi
echo "setup.sh: done. Activate with: . .venv/bin/activate"
