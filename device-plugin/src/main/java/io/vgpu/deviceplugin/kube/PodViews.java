package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.deviceplugin.core.cluster.ContainerView;
import io.vgpu.deviceplugin.core.cluster.NodeView;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.dra.kubelet.ClaimViews;
import io.vgpu.deviceplugin.dra.prepare.PodClaims;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** fabric8 objects → the core's views. */
final class PodViews {

    private PodViews() {
    }

    static PodView pod(Pod pod) {
        var meta = pod.getMetadata();
        var spec = pod.getSpec();
        return new PodView(meta.getNamespace(), meta.getName(), meta.getUid(),
                pod.getStatus() == null ? "" : pod.getStatus().getPhase(),
                spec == null ? "" : spec.getNodeName(),
                nonNullValues(meta.getAnnotations()),
                spec == null ? List.of() : containers(spec.getInitContainers()),
                spec == null ? List.of() : containers(spec.getContainers()),
                meta.getResourceVersion(), meta.getDeletionTimestamp() != null);
    }

    /** The monitor's view; missing metadata reads as empty (an API server always sets uid, namespace and name). */
    static MonitoredPod monitored(Pod pod) {
        var meta = pod.getMetadata();
        var spec = pod.getSpec();
        return new MonitoredPod(Objects.toString(meta.getUid(), ""), Objects.toString(meta.getNamespace(), ""),
                Objects.toString(meta.getName(), ""), spec == null ? "" : spec.getNodeName(),
                nonNullValues(meta.getLabels()), nonNullValues(meta.getAnnotations()),
                spec == null ? List.of() : names(spec.getInitContainers()),
                spec == null ? List.of() : names(spec.getContainers()), claimUses(pod));
    }

    /** Every container's DRA claim requests, resolved to claim names (entries whose claim is not known yet are left out). */
    private static List<MonitoredPod.ClaimUse> claimUses(Pod pod) {
        PodClaims claims = ClaimViews.pod(pod);
        List<MonitoredPod.ClaimUse> out = new ArrayList<>();
        for (PodClaims.Container c : claims.containers()) {
            for (PodClaims.Use use : c.uses()) {
                String claim = claims.claimNames().get(use.claim());
                if (claim != null) {
                    out.add(new MonitoredPod.ClaimUse(c.name(), claim, use.request()));
                }
            }
            claims.extendedClaim().ifPresent(claim -> c.extended().forEach(r -> out.add(new MonitoredPod.ClaimUse(c.name(), claim, r))));
        }
        return out;
    }

    static NodeView node(Node node) {
        return new NodeView(node.getMetadata().getName(), node.getMetadata().getResourceVersion(),
                nonNullValues(node.getMetadata().getAnnotations()));
    }

    private static List<ContainerView> containers(List<Container> containers) {
        if (containers == null) {
            return List.of();
        }
        return containers.stream().map(c -> new ContainerView(c.getName(), env(c.getEnv()))).toList();
    }

    private static List<String> names(List<Container> containers) {
        return containers == null ? List.of() : containers.stream().map(c -> Objects.toString(c.getName(), "")).toList();
    }

    /** Literal env values only: {@code valueFrom} entries have no value the plugin could read. */
    private static Map<String, String> env(List<EnvVar> env) {
        Map<String, String> out = new LinkedHashMap<>();
        if (env != null) {
            for (EnvVar e : env) {
                if (e.getName() != null && e.getValue() != null) {
                    out.put(e.getName(), e.getValue());
                }
            }
        }
        return out;
    }

    static Map<String, String> nonNullValues(Map<String, String> map) {
        Map<String, String> out = new LinkedHashMap<>();
        if (map != null) {
            map.forEach((k, v) -> {
                if (k != null && v != null) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }
}
