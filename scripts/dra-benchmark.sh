#!/usr/bin/env bash
# The "Extender mode vs DRA mode" table of docs/benchmarks.md from one run: `simulate --compare-modes
# --compare-policies` at device-plugin delay 0 and 200 ms (extender mode = --mode http, the real gateway), the
# same cluster and pods everywhere. Prints the Markdown table, the commit and the load average; writes the two
# HTML reports and the raw summaries under target/dra-benchmark/. Extra arguments go to every simulate run
# (default: --nodes 8 --pods 120; later options win, e.g. --pods 240).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -ntp -pl gateway/simulate -am package -DskipTests
out=target/dra-benchmark
mkdir -p "$out"
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%M:%SZ), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for delay in 0 200; do
  java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 -jar gateway/simulate/target/vgpu-simulate-all.jar \
    --nodes 8 --pods 120 "$@" --device-plugin-delay "$delay" --compare-modes --compare-policies \
    --report "$out/compare-$delay.html" > "$out/compare-$delay.txt"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| node policy | device-plugin delay | mode | placed | pods/s | cycle p50 / p99 | memory utilisation | fragmentation |"
echo "|---|---|---|---|---|---|---|---|"
for delay in 0 200; do
  awk -v delay="$delay" '
    /^simulate: (extender|DRA), / {
      label = $0; sub(/^simulate: /, "", label)
      split(label, parts, ", "); mode = parts[1]; policy = parts[2]; sub(/ nodes$/, "", policy)
    }
    /^pods placed / { placed = $3 " " $4 " " $5 }
    /^throughput / { pps = $2 }
    /^latency whole cycle p50 \/ p99/ { cycle = $7 " " $8 " / " $10 " " $11 }
    /^GPU memory utilisation/ { mem = $4 " " $5 }
    /^fragmentation / { frag = $NF; if ($(NF) == "%") frag = $(NF-1) " %"
      printf "| %s | %s ms | %s | %s | %s | %s | %s | %s |\n", policy, delay, mode, placed, pps, cycle, mem, frag }
  ' "$out/compare-$delay.txt"
done
echo
echo "reports: $out/compare-0.html $out/compare-200.html"
