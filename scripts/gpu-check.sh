#!/usr/bin/env bash
# Lists the real GPUs of this machine (UUID, name, memory, NUMA, MIG, XID health, minor number,
# architecture, brand, compute capability) and the driver/CUDA versions through the project's own NVML
# code. Read-only: it never changes a GPU setting and writes no file outside a temporary directory.
# Needs only gcc and the NVIDIA driver: no JDK, no Maven, no network. When `java` and the built
# hamicore-jni jar are present it also runs the Java/JNI path the device plugin uses (also listing MIG
# profiles, instances and devices and the GPU pairs' common ancestors and NVLinks, read only); when the built
# device-plugin jar is present (./mvnw -pl device-plugin -am package -DskipTests), also the DRA check:
# the CDI edits DRA mode would write for each GPU (UUID, device node, memory) against NVML and /dev, and
# how containers would get the driver libraries (a static nvidia-ctk CDI spec, or the NVIDIA runtime).
# Usage: scripts/gpu-check.sh [--nvml LIBRARY] [--sysfs ROOT] [--xid-wait-ms N] [--dev-root DIR] [--cdi-dirs DIR,DIR]
#                             [--no-dra]
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvml=""
sysfs=""
dev_root="/"
cdi_dirs="/etc/cdi,/var/run/cdi"
c_args=()
dra=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --dev-root) dev_root="${2:-}"; shift 2 ;;
    --cdi-dirs) cdi_dirs="${2:-}"; shift 2 ;;
    --no-dra) dra=no; shift ;;
    --nvml) nvml="${2:-}"; c_args+=("$1" "${2:-}"); shift 2 ;;
    --sysfs) sysfs="${2:-}"; c_args+=("$1" "${2:-}"); shift 2 ;;
    *) c_args+=("$1"); shift ;;
  esac
done
src=hamicore-jni/src/main/c
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$work/gpu-check" "$src/gpu_check_main.c" "$src/vgpu_nvml.c" -ldl \
  || { echo "gpu-check: compiling the NVML layer failed" >&2; exit 1; }
echo "== C path (dlopen NVML)"
"$work/gpu-check" ${c_args[@]+"${c_args[@]}"}
rc=$?
# the main jar only: the -tests jar (the build's vector support) sorts first and has no GpuCheck
jar=$(ls hamicore-jni/target/hamicore-jni-*.jar 2>/dev/null | grep -vE -- '-(sources|tests|javadoc)\.jar$' | head -n 1)
if command -v java >/dev/null && [ -n "$jar" ]; then
  echo "== Java path (JNI, $jar)"
  java -cp "$jar" io.vgpu.hamicore.GpuCheck ${nvml:+"$nvml"} || rc=1
fi
# the DRA check runs from the device plugin's runnable jar, or from VGPU_DRA_CHECK_CLASSPATH (tests)
dra_cp="${VGPU_DRA_CHECK_CLASSPATH:-}"
if [ -z "$dra_cp" ] && [ -f device-plugin/target/vgpu-device-plugin-all.jar ]; then
  dra_cp=device-plugin/target/vgpu-device-plugin-all.jar
fi
if [ "$dra" = yes ] && command -v java >/dev/null && [ -n "$dra_cp" ]; then
  echo "== DRA CDI edits (device-plugin, dev root $dev_root, CDI dirs $cdi_dirs)"
  java -cp "$dra_cp" io.vgpu.deviceplugin.dra.kubelet.DraGpuCheck ${nvml:+--nvml "$nvml"} ${sysfs:+--sysfs "$sysfs"} \
    --dev-root "$dev_root" --cdi-dirs "$cdi_dirs" || rc=1
fi
exit $rc
