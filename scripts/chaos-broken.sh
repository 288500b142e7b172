#!/usr/bin/env bash
# Runs the CI-sized chaos harness against a deliberately broken gateway (docs/reliability.md, "Can the checker
# fail?"): exports the committed tree (HEAD) into a scratch directory, applies loadtest/broken-builds/NAME.patch
# there, builds the gateway jar in the scratch copy, and runs THIS tree's harness against that jar until its first
# violation. Nothing in this tree changes. Exit status 0 when the break was caught, 1 when the run stayed clean.
#   scripts/chaos-broken.sh NAME [harness options]      e.g. scripts/chaos-broken.sh sweeper-off
#   scripts/chaos-broken.sh --list
# The scratch directory (jar, replica logs, report.md) is kept and printed; remove it when done.
set -euo pipefail
cd "$(dirname "$0")/.."
builds=$(ls loadtest/broken-builds/*.patch | sed 's|.*/||; s|\.patch$||' | tr '\n' ' ')
if [ "${1:-}" = "--list" ] || [ -z "${1:-}" ]; then
  echo "broken builds: $builds"
  [ -n "${1:-}" ] && exit 0 || exit 2
fi
name="$1"
shift
patch="$PWD/loadtest/broken-builds/$name.patch"
[ -f "$patch" ] || { echo "no broken build '$name' (one of: $builds)" >&2; exit 2; }

scratch="$(mktemp -d "${TMPDIR:-/tmp}/vgpu-broken-$name.XXXXXX")"
git archive HEAD | tar -x -C "$scratch"
# the private local Maven repository of this tree, if it has one (git-excluded, so not in the export)
[ -f .mvn/maven.config ] && cp .mvn/maven.config "$scratch/.mvn/maven.config"
(cd "$scratch" && git apply --verbose "$patch")
echo "building the broken gateway in $scratch ..."
(cd "$scratch" && ./mvnw -B -q -ntp -pl gateway -am package -DskipTests)

set +e
scripts/chaos.sh --jar "$scratch/gateway/target/vgpu-gateway-all.jar" --work-dir "$scratch/chaos" \
  --report "$scratch/report.md" --stop-on-violation "$@"
status=$?
set -e
echo
echo "broken build $name: report and replica logs in $scratch"
if [ "$status" -ne 0 ] && grep -q '^- \[+' "$scratch/report.md" 2>/dev/null; then
  echo "CAUGHT. First violation: $(grep -m1 '^- \[+' "$scratch/report.md" | cut -c3-)"
  exit 0
fi
echo "NOT CAUGHT (harness exit status $status)"
exit 1
