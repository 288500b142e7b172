#!/usr/bin/env bash
# The project's one test command (README): installs what the tests need beyond Maven when it is
# missing, then runs the whole build with its tests (`./mvnw -B verify`), printing each phase's time.
set -euo pipefail
cd "$(dirname "$0")/.."

phase_start=$(date +%s)
phase() { # name: prints the time the previous phase took, then starts the next
  local now; now=$(date +%s)
  if [ -n "${current_phase:-}" ]; then
    printf '[test.sh] %-28s %4ds\n' "$current_phase" "$((now - phase_start))"
  fi
  current_phase="$1"; phase_start=$now
}
total_start=$(date +%s)

phase "tools"
for tool in java gcc; do
  command -v "$tool" >/dev/null || { echo "[test.sh] $tool is required but not installed" >&2; exit 1; }
done
# promtool lints the /metrics scrapes (Debian package prometheus; only the binary is used, no server runs)
if ! command -v promtool >/dev/null; then
  echo "[test.sh] installing promtool (apt-get install prometheus)"
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  # the package starts a Prometheus server; the tests need only promtool
  ($sudo systemctl stop prometheus || $sudo service prometheus stop || $sudo pkill -x prometheus) >/dev/null 2>&1 || true
fi
command -v promtool >/dev/null || { echo "[test.sh] promtool is required (apt-get install prometheus) but not installed" >&2; exit 1; }

phase "maven verify"
./mvnw -B -ntp verify "$@"

phase "done"
printf '[test.sh] %-28s %4ds\n' "total" "$(( $(date +%s) - total_start ))"
