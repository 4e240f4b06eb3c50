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
  # the comparison report's browser test
  chromium chromium-driver
  python3-venv
)

if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${APT_PACKAGES[@]}"
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
