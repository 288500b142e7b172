#!/usr/bin/env bash
# The main job on its embedded default: builds the gateway (tests skipped) and runs `simulate`
# on a synthetic cluster, fully in-process. Extra arguments go to `simulate` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -ntp -pl gateway -am package -DskipTests
exec java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 \
  -jar gateway/target/vgpu-gateway-all.jar simulate "$@"
