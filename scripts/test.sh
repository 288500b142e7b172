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
# promtool checks the monitor's /metrics text (device-plugin MonitorWiringTest fails without it)
if ! command -v promtool >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "[test.sh] installing promtool (Debian package prometheus)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
command -v promtool >/dev/null || { echo "[test.sh] promtool is required (apt-get install prometheus) but not installed" >&2; exit 1; }

phase "maven verify"
./mvnw -B -ntp verify "$@"

phase "done"
printf '[test.sh] %-28s %4ds\n' "total" "$(( $(date +%s) - total_start ))"
