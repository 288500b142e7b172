#!/usr/bin/env bash
# Lists the real GPUs of this machine (UUID, name, memory, NUMA, MIG, XID health, minor number,
# architecture, brand, compute capability) and the driver/CUDA versions through the project's own NVML
# code. Read-only: it never changes a GPU setting. Needs only gcc and the NVIDIA driver: no JDK, no
# Maven, no network. When `java` and the built hamicore-jni jar are present it also runs the Java/JNI
# path the device plugin uses, which also lists MIG profiles, instances and devices and the GPU pairs'
# common ancestors and NVLinks (read only: no MIG mode change, no instance created).
# Usage: scripts/gpu-check.sh [--nvml LIBRARY] [--sysfs ROOT] [--xid-wait-ms N]
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=hamicore-jni/src/main/c
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$work/gpu-check" "$src/gpu_check_main.c" "$src/vgpu_nvml.c" -ldl \
  || { echo "gpu-check: compiling the NVML layer failed" >&2; exit 1; }
echo "== C path (dlopen NVML)"
"$work/gpu-check" "$@"
rc=$?
# the main jar only: the -tests jar (the build's vector support) sorts first and has no GpuCheck
jar=$(ls hamicore-jni/target/hamicore-jni-*.jar 2>/dev/null | grep -vE -- '-(sources|tests|javadoc)\.jar$' | head -n 1)
if command -v java >/dev/null && [ -n "$jar" ]; then
  nvml=""
  prev=""
  for a in "$@"; do [ "$prev" = "--nvml" ] && nvml="$a"; prev="$a"; done
  echo "== Java path (JNI, $jar)"
  java -cp "$jar" io.vgpu.hamicore.GpuCheck ${nvml:+"$nvml"} || rc=1
fi
exit $rc
