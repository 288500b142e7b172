package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.StringPool;
import io.vgpu.state.model.ValuePool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last trimming step of an informer's pod (issue 6's heap: 200,000 cached pods on one replica): every word
 * that recurs across pods becomes the {@link StringPool}'s instance, a pod's container list the instance every equal
 * list shares ({@link ValuePool}), and the pod's two device annotations share one string when they are equal (they are, from the filter until the device plugin consumes its copy).
 */
public final class ObservedPods {

    /**
     * Pods' container lists: every pod of a workload has an equal one (names, resource quantities), 128 bytes a pod
     * otherwise. Bounded as the string pool is: distinct lists beyond it only restart the sharing.
     */
    private static final ValuePool<List<Container>> CONTAINERS = new ValuePool<>(1 << 14);

    private ObservedPods() {
    }

    /**
     * An {@link ObservedPod#equals equal} pod whose recurring strings are pooled: namespace, scheduler, node,
     * runtime class, phase, annotation and label keys, the node annotation and label values, the bind phase,
     * container names and resource names and quantities. Per-pod strings (name, UID, resource version, device
     * lists, times) are kept as they are.
     */
    public static ObservedPod canonical(ObservedPod pod) {
        PodSpec s = pod.spec();
        PodSpec spec = new PodSpec(s.name(), StringPool.canonical(s.namespace()), s.uid(),
                StringPool.canonical(s.schedulerName()), StringPool.canonical(s.nodeName()),
                StringPool.canonical(s.runtimeClassName()), annotations(s.annotations()), labels(s.labels()),
                containers(s.initContainers()), containers(s.containers()));
        return new ObservedPod(spec, StringPool.canonical(pod.phase()), pod.terminating(), pod.initContainersDoneOk(),
                pod.resourceVersion());
    }

    private static Map<String, String> annotations(Map<String, String> annotations) {
        Map<String, String> out = new HashMap<>(annotations.size() * 2);
        String allocated = annotations.get(HamiAnnotations.DEVICES_ALLOCATED);
        annotations.forEach((k, v) -> {
            String value = v;
            if (k.equals(HamiAnnotations.VGPU_NODE) || k.equals(HamiAnnotations.BIND_PHASE)) {
                value = StringPool.canonical(v);
            } else if (k.equals(HamiAnnotations.DEVICES_TO_ALLOCATE) && v.equals(allocated)) {
                value = allocated;
            }
            out.put(StringPool.canonical(k), value);
        });
        return out;
    }

    private static Map<String, String> labels(Map<String, String> labels) {
        Map<String, String> out = new HashMap<>(labels.size() * 2);
        labels.forEach((k, v) -> out.put(StringPool.canonical(k),
                k.equals(HamiAnnotations.VGPU_NODE) ? StringPool.canonical(v) : v));
        return out;
    }

    private static List<Container> containers(List<Container> containers) {
        if (containers.isEmpty()) {
            return List.of();
        }
        List<Container> out = new ArrayList<>(containers.size());
        for (Container c : containers) {
            out.add(new Container(StringPool.canonical(c.name()), quantities(c.limits()), quantities(c.requests()),
                    c.privileged(), c.env()));
        }
        return CONTAINERS.of(List.copyOf(out));
    }

    private static Map<String, String> quantities(Map<String, String> resources) {
        Map<String, String> out = new HashMap<>(resources.size() * 2);
        resources.forEach((k, v) -> out.put(StringPool.canonical(k), StringPool.canonical(v)));
        return out;
    }
}
