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

# what lava-server, lava-dispatcher and lavacli bring on Debian 12 (their dependencies), named so that a fresh
# machine installs the same set the LAVA tests ran with here (apt would pull most of it anyway)
LAVA_STACK=(
  acl attr augeas-lenses bmap-tools bpftool btrfs-progs cryptsetup-bin db-util db5.3-util debootstrap dmeventd
  dmidecode docutils-common dosfstools exfatprogs extlinux f2fs-tools fdisk fonts-font-awesome
  fonts-glyphicons-halflings gawk gdisk grub-common grub2-common gunicorn icoutils isc-dhcp-client kpartx
  lava-common lava-dispatcher-host lava-server-doc ldmtool libafflib0v5 libaugeas0 libbfio1 libbpfcc
  libclone-perl libdate-manip-perl libdevmapper-event1.02.1 libefiboot1 libefivar1 libencode-locale-perl
  libewf2 libfile-listing-perl libfuse2 libguestfs0 libhivex0 libhtml-parser-perl libhtml-tagset-perl
  libhtml-tree-perl libhttp-cookies-perl libhttp-date-perl libhttp-message-perl libhttp-negotiate-perl
  libio-html-perl libio-socket-ssl-perl libjs-bootstrap libjs-excanvas libjs-jquery-flot libjs-jquery-typeahead
  libjs-prettify libldm-1.0-0 liblua5.3-0 liblvm2cmd2.03 liblwp-mediatypes-perl liblwp-protocol-https-perl
  libnet-http-perl libnet-ssleay-perl libnetpbm11 libnorm1 libntfs-3g89 libparted2 libpci3 libpgm-5.3-0
  libpopt0 libregexp-ipv6-perl librpm9 librpmio9 libsigsegv2 libssh-4 libtimedate-perl libtry-tiny-perl
  libtsk19 liburi-perl libvhdi1 libvirt0 libvmdk1 libwww-perl libwww-robotrules-perl libyajl2 libyara9 libzmq5
  linux-compiler-gcc-12-x86 linux-headers-amd64 linux-kbuild-6.1 lsscsi lvm2 lzop mdadm mtools netpbm ntfs-3g
  osinfo-db parted pci.ids pciutils perl-openssl-defaults python3-aiohttp python3-aiosignal python3-amqp
  python3-anyjson python3-asgiref python3-async-timeout python3-attr python3-billiard python3-bpfcc
  python3-celery python3-certifi python3-chardet python3-charset-normalizer python3-click
  python3-click-didyoumean python3-click-plugins python3-click-repl python3-colorama python3-configobj
  python3-dateutil python3-defusedxml python3-django python3-django-allauth python3-django-auth-ldap
  python3-django-environ python3-django-filters python3-django-tables2 python3-djangorestframework
  python3-djangorestframework-extensions python3-djangorestframework-filters python3-dnspython python3-docutils
  python3-ephem python3-eventlet python3-frozenlist python3-greenlet python3-guestfs python3-gunicorn
  python3-idna python3-jinja2 python3-junit.xml python3-kombu python3-ldap python3-magic python3-markupsafe
  python3-memcache python3-multidict python3-netifaces python3-openid python3-pexpect python3-prompt-toolkit
  python3-psycopg2 python3-ptyprocess python3-py python3-pyasn1 python3-pyasn1-modules python3-pyudev
  python3-requests python3-requests-oauthlib python3-roman python3-setproctitle python3-simplejson
  python3-sqlparse python3-tap python3-tz python3-urllib3 python3-vine python3-voluptuous python3-wcwidth
  python3-whitenoise python3-yarl python3-zmq qemu-system-x86 qemu-utils scrub seabios sleuthkit squashfs-tools
  supermin syslinux udev uuid-runtime zerofree
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
  apt-get install -y -q --no-install-recommends lava-server lava-dispatcher lavacli "${LAVA_STACK[@]}"
  # the kernel headers lava-dispatcher-host's bpfcc wants, at the ABI seen here; apt's own pick when they moved on
  apt-get install -y -q --no-install-recommends linux-headers-6.1.0-56-amd64 linux-headers-6.1.0-56-common \
    || apt-get install -y -q --no-install-recommends linux-headers-amd64
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
