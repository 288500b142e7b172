package io.vgpu.state.codec;

/**
 * Every annotation and label key of HAMi v2.10's wire protocol that the gateway and device plugin
 * read or write (spec §6). Byte-exact; never rename.
 */
public final class HamiAnnotations {

    // --- node annotations (spec §6.1) ---
    /** Node: device registration JSON written by the device plugin. */
    public static final String NODE_NVIDIA_REGISTER = "hami.io/node-nvidia-register";
    /** Node: optional pairwise link scores written by the device plugin. */
    public static final String NODE_NVIDIA_SCORE = "hami.io/node-nvidia-score";
    /** Node: scheduler handshake stamp {@code Requesting_<time>}. */
    public static final String NODE_HANDSHAKE = "hami.io/node-handshake";
    /** Node: the node lock {@code <RFC3339>,<ns>,<name>}. */
    public static final String NODE_LOCK = "hami.io/mutex.lock";
    /** Node: comma-separated GPU UUIDs excluded from new allocations. */
    public static final String DEVICE_CORDON = "hami.io/device-cordon";

    // --- pod annotations written by the scheduler (spec §6.2) ---
    /** Pod: chosen node (also a label of the same name). */
    public static final String VGPU_NODE = "hami.io/vgpu-node";
    /** Pod: Unix seconds of the filter decision. */
    public static final String VGPU_TIME = "hami.io/vgpu-time";
    /** Pod: allocation the device plugin consumes. */
    public static final String DEVICES_TO_ALLOCATE = "hami.io/vgpu-devices-to-allocate";
    /** Pod: allocation as decided; the durable usage record. */
    public static final String DEVICES_ALLOCATED = "hami.io/vgpu-devices-allocated";
    /** Pod: MIG placements of the allocation (JSON). */
    public static final String MIG_ALLOCATIONS = "hami.io/vgpu-mig-allocations";
    /** Pod: {@code allocating} | {@code success} | {@code failed}. */
    public static final String BIND_PHASE = "hami.io/bind-phase";
    /** Pod: Unix seconds of the bind. */
    public static final String BIND_TIME = "hami.io/bind-time";

    // --- user-facing pod annotations (spec §6.4) ---
    /** Pod: allowed GPU types (case-insensitive substrings). */
    public static final String USE_GPU_TYPE = "nvidia.com/use-gputype";
    /** Pod: forbidden GPU types. */
    public static final String NOUSE_GPU_TYPE = "nvidia.com/nouse-gputype";
    /** Pod: allowed GPU UUIDs. */
    public static final String USE_GPU_UUID = "nvidia.com/use-gpuuuid";
    /** Pod: forbidden GPU UUIDs. */
    public static final String NOUSE_GPU_UUID = "nvidia.com/nouse-gpuuuid";
    /** Pod: Go bool; all GPUs of a container from one NUMA node. */
    public static final String NUMA_BIND = "nvidia.com/numa-bind";
    /** Pod: the device mode must be a substring of this value. */
    public static final String VGPU_MODE = "nvidia.com/vgpu-mode";
    /** Pod: node policy {@code binpack} | {@code spread}. */
    public static final String NODE_SCHEDULER_POLICY = "hami.io/node-scheduler-policy";
    /** Pod: GPU policy, possibly a comma chain. */
    public static final String GPU_SCHEDULER_POLICY = "hami.io/gpu-scheduler-policy";
    /** Pod: {@code slot=<int>,core=<int>,memory=<int>}. */
    public static final String DEVICE_SCORING_WEIGHTS = "hami.io/device-scoring-weights";

    // --- labels ---
    /** Pod/namespace label that keeps the webhook away. */
    public static final String WEBHOOK_IGNORE_LABEL = "hami.io/webhook";
    /** PodGroup membership label. */
    public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

    private HamiAnnotations() {
    }
}
