#!/usr/bin/env bash
# perfgate setup on a fresh Debian 12 machine (as root for the Debian packages; README "Two commands"):
#   ./setup.sh          what the gate needs: python3-venv, and .venv with the gate's pinned requirements
#                       (requirements.txt, perfgate itself editable). Enough for `robot ... suites/` on the simulated
#                       board and for a lab of one's own, labgrid or LAVA (their clients are Python packages).
#   ./setup.sh --tests  that, and what the tests need: the test tools in .venv (requirements-tests.txt), the QEMU
#                       board (its Debian packages and its image under build/qemu/), the real tools the parser
#                       captures and live tests run, Chromium, glmark2 under Xvfb, a real LAVA (PostgreSQL,
#                       lava-server, lava-dispatcher, lavacli), netperf (non-free, under build/) and a SQUAD server
#                       (.venv-squad). `--qemu` is the same (its older name).
# Only the packages perfgate uses are named: apt resolves their dependencies.
set -euo pipefail
cd "$(dirname "$0")"
# the image build uses mkfs.ext4 and friends, which Debian keeps in /usr/sbin and /sbin (not on a plain user's PATH)
export PATH="$PATH:/usr/sbin:/sbin"

TESTS=false
if [ "${1:-}" = "--tests" ] || [ "${1:-}" = "--qemu" ]; then
  TESTS=true
elif [ -n "${1:-}" ]; then
  echo "usage: ./setup.sh [--tests]  (no option: what the gate needs; --tests: also what the tests need)" >&2
  exit 2
fi

GATE_PACKAGES=(python3-venv)  # the gate's own virtualenv; everything else the gate runs is a Python package

TEST_PACKAGES=(
  # virtual boards: QEMU arm64 behind Debian's U-Boot, the image's contents, serial plumbing
  qemu-system-arm ipxe-qemu u-boot-qemu busybox-static dropbear-bin cpio socat ser2net device-tree-compiler
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross dpkg-dev
  # real tools, for parser captures and the QEMU board's workloads
  openssl fio iperf3 iperf rt-tests stress-ng time alsa-utils gstreamer1.0-tools gstreamer1.0-plugins-base libdrm-tests v4l-utils
  iproute2 ethtool
  glmark2-x11 xvfb xauth libgl1 libgl1-mesa-dri   # glmark2 on Mesa's llvmpipe under a virtual X server (tests/tools/test_tools_glmark2.py)
  # the comparison report's browser test
  chromium chromium-driver
  # the LAVA tests' database (lava-server's post-install needs its cluster running: installed first, below)
  postgresql
)
LAVA_PACKAGES=(lava-server lava-dispatcher lavacli)  # a real LAVA for the `lava` tests (tests/lavalab.py)

if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${GATE_PACKAGES[@]}"
  if $TESTS; then
    apt-get install -y -q --no-install-recommends "${TEST_PACKAGES[@]}"
    # netperf (real captures and tests/tools/test_tools_netperf.py's live runs) is in Debian's non-free component, which
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
    # tests/lavalab.py starts LAVA's daemons itself (no systemd); lava-server's post-install creates and migrates
    # its database, so PostgreSQL's cluster runs first
    pg_lsclusters -h | while read -r version cluster _port status _rest; do
      [ "$status" = online ] || pg_ctlcluster "$version" "$cluster" start
    done
    apt-get install -y -q --no-install-recommends "${LAVA_PACKAGES[@]}"
  fi
else
  needed=("${GATE_PACKAGES[@]}")
  $TESTS && needed+=("${TEST_PACKAGES[@]}" "${LAVA_PACKAGES[@]}")
  echo "setup.sh: not root; make sure these Debian packages are installed: ${needed[*]}" >&2
fi

PYTHON=${PYTHON:-python3}
[ -d .venv ] || "$PYTHON" -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -r requirements.txt

if $TESTS; then
  .venv/bin/pip install -q -r requirements-tests.txt
  # the SQUAD server the tests publish runs to (tests/squadserver.py): its own virtualenv, so that its Django and
  # Celery pins never meet the gate's; offline_assets.py lets it start without fetching its web UI's scripts
  [ -d .venv-squad ] || "$PYTHON" -m venv .venv-squad
  .venv-squad/bin/pip install -q --upgrade pip
  .venv-squad/bin/pip install -q -r tests/squad_server/requirements.txt
  .venv-squad/bin/python tests/squad_server/offline_assets.py
  .venv/bin/python -m perfgate qemu build
fi
echo "setup.sh: done. Activate with: . .venv/bin/activate"
