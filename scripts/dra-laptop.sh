#!/usr/bin/env bash
# Runs the node agent on this machine as node NODE of any Kubernetes API server (the kubeconfig's:
# KUBECONFIG or ~/.kube/config), with fake GPUs and every directory under a new temporary directory,
# so the DRA driver gpu.vgpu.io can be driven by your own fake kubelet. The node must exist and carry
# the label vgpu.io/mode=dra (kubectl label node NODE vgpu.io/mode=dra), which puts the agent in DRA
# mode; nothing under /var/lib/kubelet, /var/run/cdi or /usr/local/vgpu is touched.
# Usage: scripts/dra-laptop.sh NODE [GPU_FILE]   (GPU_FILE: a fake GPU file; default two A100-40GB)
set -euo pipefail
cd "$(dirname "$0")/.."
node="${1:?usage: scripts/dra-laptop.sh NODE [GPU_FILE]}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/vgpu-dra.XXXXXX")
# what the chart's hami-core init container creates on a node: the monitor's feedback loop needs it
mkdir -p "$dir/host/usr/local/vgpu/containers"
# the kubelet's device-plugin directory: a node not labelled yet starts in device-plugin mode, which watches it
mkdir -p "$dir/device-plugins"
if [ -n "${2:-}" ]; then
  cp "$2" "$dir/gpus.yaml"
else
  cat > "$dir/gpus.yaml" <<'GPUS'
driverVersion: "550.54.15"
cudaDriverVersion: "12.4"
gpus:
  - {uuid: GPU-1a2b3c4d-0000-4000-8000-000000000000, name: NVIDIA A100-SXM4-40GB, memoryMiB: 40960, minor: 0,
     pciBusId: "0000:07:00.0", architecture: Ampere, brand: Nvidia, cudaComputeCapability: "8.0"}
  - {uuid: GPU-1a2b3c4d-0000-4000-8000-000000000001, name: NVIDIA A100-SXM4-40GB, memoryMiB: 40960, minor: 1,
     pciBusId: "0000:0f:00.0", architecture: Ampere, brand: Nvidia, cudaComputeCapability: "8.0"}
GPUS
fi
[ -f device-plugin/target/vgpu-device-plugin-all.jar ] || ./mvnw -B -q -ntp -pl device-plugin -am package -DskipTests
cat <<INFO
vgpu DRA driver for node $node, everything under $dir:
  registration socket  $dir/plugins_registry/gpu.vgpu.io-reg.sock   (pluginregistration.Registration)
  DRA socket           $dir/plugins/gpu.vgpu.io/dra.sock             (k8s.io.kubelet.pkg.apis.dra.v1 and .v1beta1 DRAPlugin)
  CDI specs            $dir/cdi
  HAMi-core claim dirs $dir/host/usr/local/vgpu/claims
  checkpoint           $dir/plugins/gpu.vgpu.io/checkpoint.json
  metrics              http://127.0.0.1:19394/metrics
INFO
exec env VGPU_NODE_NAME="$node" \
  VGPU_DEVICE_SOURCE=fake VGPU_FAKE_GPUS_FILE="$dir/gpus.yaml" \
  VGPU_HOST_ROOT="$dir/host" VGPU_KUBELET_DIR="$dir/device-plugins" \
  VGPU_DEVICE_CONFIG_FILE="$dir/device-config.yaml" VGPU_NODE_CONFIG_FILE="$dir/config.json" \
  VGPU_DRA_REGISTRY_DIR="$dir/plugins_registry" VGPU_DRA_PLUGIN_DIR="$dir/plugins/gpu.vgpu.io" \
  VGPU_DRA_CDI_DIR="$dir/cdi" VGPU_DRA_STATIC_CDI_DIRS="$dir/etc/cdi" \
  VGPU_METRICS_BIND_ADDRESS=127.0.0.1 VGPU_METRICS_PORT=19394 \
  java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 -jar device-plugin/target/vgpu-device-plugin-all.jar
