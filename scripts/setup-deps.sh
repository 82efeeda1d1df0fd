#!/bin/sh
# setup-deps.sh - install the Debian packages collsim needs, only those missing.
#
# Idempotent: when everything is present it does nothing (and needs no network).
# When something is missing it runs `apt-get update` once, then installs the
# missing packages. Uses sudo when not root and sudo exists.
set -eu

# (make runs the Makefile; time is /usr/bin/time, which the benchmark scripts use.)
PACKAGES="libsimgrid-dev liblua5.4-dev libyaml-dev libcunit1-dev cmake pkg-config gcc make python3-matplotlib time"

missing=""
for pkg in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $pkg" ;;
    esac
done

if [ -z "$missing" ]; then
    exit 0
fi

echo "setup-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "setup-deps: not root and no sudo; install as root:$missing" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
