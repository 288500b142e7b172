package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.ObservedPods;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.state.dra.DraNames;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fabric8 objects → the trimmed values the core sees. Keeps only what scheduling and accounting read:
 * {@code hami.io/*} (and, on pods, {@code nvidia.com/*}) annotations, labels, container resources.
 * Never throws on odd objects: missing parts become empty values. (fabric8 and the core both have a
 * {@code PodSpec}, {@code Container} and {@code Quantity}; the core's are the ones spelled in full.)
 */
final class KubeObjects {

    private static final String HAMI_PREFIX = "hami.io/";
    private static final String NVIDIA_PREFIX = "nvidia.com/";
    private static final String LIMITS_PREFIX = "limits.";

    private KubeObjects() {
    }

    /** {@code <namespace>/<name>}. */
    static String key(ObjectMeta meta) {
        return key(meta.getNamespace(), meta.getName());
    }

    /** {@code <namespace>/<name>}. */
    static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }

    static ObservedPod pod(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        PodSpec spec = pod.getSpec();
        List<io.vgpu.gateway.core.Container> init = spec == null ? List.of() : containers(spec.getInitContainers());
        List<io.vgpu.gateway.core.Container> app = spec == null ? List.of() : containers(spec.getContainers());
        io.vgpu.gateway.core.PodSpec trimmed = new io.vgpu.gateway.core.PodSpec(meta.getName(), meta.getNamespace(), meta.getUid(),
                spec == null ? null : spec.getSchedulerName(), spec == null ? null : spec.getNodeName(),
                spec == null ? null : spec.getRuntimeClassName(),
                filtered(meta.getAnnotations(), true), meta.getLabels(), init, app);
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        // pooled: one replica caches every GPU pod of the cluster (issue 6: 200,000 pods in 512 MiB)
        return ObservedPods.canonical(new ObservedPod(trimmed, phase, meta.getDeletionTimestamp() != null,
                initContainersDoneOk(pod, init.size()), meta.getResourceVersion()));
    }

    static NodeObservation node(Node node, String gpuResource) {
        ObjectMeta meta = node.getMetadata();
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Quantity gpus = allocatable == null ? null : allocatable.get(gpuResource);
        boolean dra = meta.getLabels() != null && DraNames.MODE_DRA.equals(meta.getLabels().get(DraNames.MODE_LABEL));
        return new NodeObservation(meta.getName(), filtered(meta.getAnnotations(), false), ceil(gpus),
                meta.getResourceVersion(), dra);
    }

    /** The quota's integer {@code limits.<resource>} entries, keyed by resource (spec §8.4). */
    static QuotaObservation quota(ResourceQuota quota) {
        Map<String, Long> limits = new LinkedHashMap<>();
        Map<String, Quantity> hard = quota.getSpec() == null ? null : quota.getSpec().getHard();
        if (hard != null) {
            hard.forEach((name, value) -> {
                if (name.startsWith(LIMITS_PREFIX) && name.length() > LIMITS_PREFIX.length() && value != null) {
                    io.vgpu.gateway.core.request.Quantity.parse(value.toString()).asInt64()
                            .ifPresent(v -> limits.put(name.substring(LIMITS_PREFIX.length()), v));
                }
            });
        }
        return new QuotaObservation(quota.getMetadata().getNamespace(), quota.getMetadata().getName(), limits);
    }

    private static List<io.vgpu.gateway.core.Container> containers(List<Container> containers) {
        if (containers == null) {
            return List.of();
        }
        return containers.stream().map(c -> {
            ResourceRequirements r = c.getResources();
            boolean privileged = c.getSecurityContext() != null
                    && Boolean.TRUE.equals(c.getSecurityContext().getPrivileged());
            return new io.vgpu.gateway.core.Container(c.getName(), quantities(r == null ? null : r.getLimits()),
                    quantities(r == null ? null : r.getRequests()), privileged, List.of());
        }).toList();
    }

    private static Map<String, String> quantities(Map<String, Quantity> resources) {
        Map<String, String> out = new LinkedHashMap<>();
        if (resources != null) {
            resources.forEach((k, v) -> {
                if (v != null) {
                    out.put(k, v.toString());
                }
            });
        }
        return out;
    }

    /** Only the annotations the gateway reads: {@code hami.io/*}, plus {@code nvidia.com/*} on pods. */
    private static Map<String, String> filtered(Map<String, String> annotations, boolean withNvidia) {
        Map<String, String> out = new LinkedHashMap<>();
        if (annotations != null) {
            annotations.forEach((k, v) -> {
                if (v != null && (k.startsWith(HAMI_PREFIX) || (withNvidia && k.startsWith(NVIDIA_PREFIX)))) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    /** Every init container has a status, Terminated with exit code 0. */
    private static boolean initContainersDoneOk(Pod pod, int initCount) {
        if (initCount == 0 || pod.getStatus() == null) {
            return false;
        }
        List<ContainerStatus> statuses = pod.getStatus().getInitContainerStatuses();
        if (statuses == null || statuses.size() < initCount) {
            return false;
        }
        return statuses.stream().allMatch(s -> s.getState() != null && s.getState().getTerminated() != null
                && Integer.valueOf(0).equals(s.getState().getTerminated().getExitCode()));
    }

    /** Quantity {@code Value()}: rounded up, 0 when absent or invalid. */
    private static long ceil(Quantity quantity) {
        if (quantity == null) {
            return 0;
        }
        return io.vgpu.gateway.core.request.Quantity.parse(quantity.toString()).value().orElse(0);
    }
}
