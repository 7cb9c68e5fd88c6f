#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks: redis-server, PostgreSQL's server (15 or newer: the
# tests start a private cluster of their own) and chromium through apt, then the npm packages
# (which bring Node 22 itself). Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
# Debian's packages put each major version's server binaries in /usr/lib/postgresql/<version>/bin.
postgres_found=""
for initdb in /usr/lib/postgresql/*/bin/initdb; do
  version="$(basename "$(dirname "$(dirname "$initdb")")")"
  [[ -x "$initdb" && "$version" =~ ^[0-9]+$ && "$version" -ge 15 ]] && postgres_found=yes
done
[ -n "$postgres_found" ] || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "[install] apt-get install ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "[install] npm install"
npm install --no-audit --no-fund --loglevel=error
