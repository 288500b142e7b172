package io.vgpu.deviceplugin.testing;

import io.vgpu.deviceplugin.core.cluster.ContainerView;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders of {@link PodView}s for core tests: {@code PodFixtures.pod("p").toAllocate("GPU-a,NVIDIA,1000,10:;").build()}. */
public final class PodFixtures {

    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final List<ContainerView> init = new ArrayList<>();
    private final List<ContainerView> containers = new ArrayList<>();
    private String namespace = "default";
    private final String name;
    private String uid;
    private String phase = "Pending";
    private String node = "node-1";

    private PodFixtures(String name) {
        this.name = name;
        this.uid = name + "-uid";
    }

    /** A pending pod on {@code node-1} in {@code default}, uid {@code <name>-uid}. */
    public static PodFixtures pod(String name) {
        return new PodFixtures(name);
    }

    public PodFixtures namespace(String value) {
        this.namespace = value;
        return this;
    }

    public PodFixtures uid(String value) {
        this.uid = value;
        return this;
    }

    public PodFixtures phase(String value) {
        this.phase = value;
        return this;
    }

    public PodFixtures node(String value) {
        this.node = value;
        return this;
    }

    public PodFixtures annotation(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    /** {@code hami.io/vgpu-devices-to-allocate}. */
    public PodFixtures toAllocate(String value) {
        return annotation(HamiAnnotations.DEVICES_TO_ALLOCATE, value);
    }

    /** The annotations the scheduler's bind leaves for the pending-pod list lookup. */
    public PodFixtures bound(String phaseValue) {
        annotation(HamiAnnotations.BIND_TIME, "1764470001");
        annotation(HamiAnnotations.BIND_PHASE, phaseValue);
        return annotation(HamiAnnotations.VGPU_NODE, node);
    }

    public PodFixtures initContainer(String containerName) {
        init.add(ContainerView.named(containerName));
        return this;
    }

    public PodFixtures container(String containerName) {
        containers.add(ContainerView.named(containerName));
        return this;
    }

    public PodFixtures container(String containerName, Map<String, String> env) {
        containers.add(new ContainerView(containerName, env));
        return this;
    }

    public PodView build() {
        return new PodView(namespace, name, uid, phase, node, annotations, init,
                containers.isEmpty() ? List.of(ContainerView.named("main")) : containers);
    }
}
