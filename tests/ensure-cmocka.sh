#!/bin/sh
# Makes sure the cmocka test library is installed; installs it through the system
# package manager when it can, else says exactly what to install. Exit 0 when ready.
have_cmocka() {
    if command -v pkg-config >/dev/null 2>&1; then
        pkg-config --exists cmocka && return 0
    fi
    [ -f /usr/include/cmocka.h ]
}

have_cmocka && exit 0

pkgs="libcmocka-dev pkg-config"
echo "attnstep: the tests need cmocka; installing: $pkgs" >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs
    fi
fi

have_cmocka && exit 0
echo "attnstep: cmocka is missing and could not be installed automatically." >&2
echo "  install it, then run make test again:" >&2
echo "    Debian/Ubuntu: sudo apt-get install libcmocka-dev pkg-config" >&2
echo "    Fedora:        sudo dnf install libcmocka-devel pkgconf" >&2
echo "    macOS:         brew install cmocka pkg-config" >&2
exit 1
