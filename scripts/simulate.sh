#!/usr/bin/env bash
# The main job on its embedded default: builds the simulator (module gateway/simulate, tests skipped) and runs it
# on a synthetic cluster, fully in-process. The simulator is not part of the shipped gateway jar; its own runnable
# jar holds the real gateway. Extra arguments go to the simulator (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -ntp -pl gateway/simulate -am package -DskipTests
exec java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 \
  -jar gateway/simulate/target/vgpu-simulate-all.jar "$@"
