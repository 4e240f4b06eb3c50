"""The QEMU arm64 virtual board: an emulated board behind Debian's real U-Boot.

- `recipe`: the lab's `qemu:` and `image:` data (variables/labs/qemu.yaml)
- `apt`: arm64 packages from Debian's archive through a private apt state (the host's dpkg is never touched)
- `rootfs`: the busybox initramfs (init scripts, ELF library closure, keys, cpio)
- `fio`: a static fio cross-built from Debian's fio source
- `image`: the whole build, cached in build/qemu/ and redone when its inputs change
- `launch`: QEMU's command line, the process and its ports
- `supervisor`: the board process (`python -m perfgate qemu serve`): power on/off/cycle, a serial console that
  stays on one port across power cycles, QEMU never outliving the gate
"""
