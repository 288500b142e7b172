#!/usr/bin/env bash
# The benchmark (docs/benchmarks.md): builds what it needs (tests skipped) and runs the benchmark driver once:
# the bare Vert.x endpoint, /filter at 500/5,000/10,000 nodes, the filter+bind cycle (1 and 3 replicas, K = 1
# and 3 streams, device plugin 0 and 200 ms, fast API sink and fabric8 mock API), fan-out and heap.
# Results: loadtest/target/benchmark.json and loadtest/target/benchmark.md. Extra arguments go to the driver,
# e.g. ./scripts/bench.sh --only filter --filter-nodes 5000 (parts: filter,cycle,binpack,mock,heap).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -ntp -pl loadtest -am verify -Pbench -DskipTests -Dbench.args="$*"
echo "bench.sh: loadtest/target/benchmark.json, loadtest/target/benchmark.md"
