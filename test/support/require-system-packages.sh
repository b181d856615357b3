#!/usr/bin/env bash
# Before the tests: the real components they run (redis-server for the distributed crawl, chromium
# for the report and the dashboard, promtool for the metrics of --serve) are found, or installed
# from Debian's packages when this is root with apt-get, or the run stops at once with one line
# saying how to install them. No test is skipped for want of one.
set -euo pipefail

# command  Debian package
needs=(
  "redis-server redis-server"
  "chromium chromium"
  "promtool prometheus"
)

missing=()
for pair in "${needs[@]}"; do
  read -r cmd pkg <<<"$pair"
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} for the tests (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >&2
  exit 0
fi

echo "the tests need ${missing[*]}: install with 'sudo apt-get install ${missing[*]}' and run npm test again" >&2
exit 1
