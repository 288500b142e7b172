#!/usr/bin/env bash
# The chaos harness (docs/reliability.md): builds the gateway and the harness (tests skipped), then runs N gateway
# JVMs against a mock API server under concurrent schedulers, kill -9 and restarts, checking the invariants.
# Defaults are the CI-sized run (3 replicas, 1,200 pods, 3 kills); the soak is
#   scripts/chaos.sh --pods 100000 --kills 1000 --full-restart-every 10 --kill-every 60 --nodes 6 --live-pods 72 \
#     --schedulers 12 --run-for 130 --report /tmp/soak.md   (about an hour on 2 cores; docs/reliability.md)
# Extra arguments go to the harness (try --help). Exit status 0 when the run is clean.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -ntp -pl gateway,loadtest -am package -DskipTests
exec java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 \
  -cp "$(cat loadtest/target/chaos.classpath):loadtest/target/loadtest-0.1.0-SNAPSHOT.jar" \
  io.vgpu.loadtest.chaos.ChaosMain "$@"
