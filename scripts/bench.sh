#!/usr/bin/env bash
# The benchmark (docs/benchmarks.md): builds what it needs (tests skipped) and runs the benchmark driver once.
# Every gateway replica and the bare endpoint run in JVMs of their own; the driver only drives the load and plays
# the API server (the fast API sink). Rows: the bare endpoint, /filter at 500/5,000/10,000 nodes, the filter+bind
# cycle (1 and 3 replicas, K = 1 and 3, device plugin 0 and 200 ms) with decisions/s, CPU per decision over every
# gateway process and fan-out per replica per decision, fan-out at 10 and 100 placed pods per node, binpack, the
# fabric8 mock API server, and the heap at 10,000 nodes / 200,000 pods.
# Results: loadtest/target/benchmark.json (every row, the machine, the commit, each target of issue 14 with `met`)
# and loadtest/target/benchmark.md. Extra arguments go to the driver (--help lists them), e.g.
#   ./scripts/bench.sh --small                                  # every target's rows at small sizes, minutes
#   ./scripts/bench.sh --only filter --filter-nodes 5000        # one part
set -euo pipefail
cd "$(dirname "$0")/.."
for a in "$@"; do
  if [[ "$a" == "--help" || "$a" == "-h" ]]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'USAGE'

Usage: ./scripts/bench.sh [--smoke | --small] [--only filter,cycle,fanout,binpack,mock,heap]
                          [--filter-nodes 500,5000] [--replica-jvm -Xmx1g,-XX:+UseParallelGC]
                          [--warmup 60] [--window 30] [--delays 0] [--rows cycle-r3-k1-d0]
                          [--live-pods-per-node 10]
  --smoke        CI sizes: every part, tiny, about a second each
  --small        every row the targets need at small sizes (a quick look, not the record)
  --only         the parts to run (default: all; replica-heap: the heap part's 3-replica row alone)
  --filter-nodes cluster sizes of the /filter rows (default 500,5000,10000)
  --replica-jvm  JVM options of each gateway replica's own JVM, comma-separated; a comma not followed by '-'
                 stays inside its option, e.g. -Xmx1g,-XX:StartFlightRecording=filename=/tmp/r.jfr,settings=profile
  --warmup       every row's warm-up in seconds (default 20 per /filter row, 40 per cycle row: cold JVMs)
  --window       every row's measured window in seconds (default 12 per /filter row, 20 per cycle row)
  --delays       the cycle rows' device-plugin delays in ms (default 0,200)
  --rows         the cycle part's rows by id (default: all but cycle-r3-k1-d0-entry1, run only when named:
                 3 replicas, every request to one), e.g. one row to profile with jcmd JFR.start
  --live-pods-per-node  allocated pods per node the cycle rows keep: the sink deletes the oldest beyond them and
                 every replica ingests the delete, so a row reaches a steady state (default 10; 0: pods stay placed)
Run it on a quiet machine: the JSON records the load average at the start and at the end.
USAGE
    exit 0
  fi
done
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit="${commit}-dirty"
fi
export BENCH_COMMIT="$commit"
./mvnw -B -ntp -pl loadtest -am verify -Pbench -DskipTests -Dbench.args="$*"
echo "bench.sh: loadtest/target/benchmark.json, loadtest/target/benchmark.md (commit $commit)"
