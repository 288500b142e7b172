package io.vgpu.gateway.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test builders for {@link PodSpec} and {@link Container}, in the style of kube-scheduler's
 * {@code testing/wrappers.go}: {@code pod("p").container(ctr("c").limit("nvidia.com/gpu", "1")).build()}.
 */
public final class PodFixtures {

    private PodFixtures() {
    }

    /** A pod named {@code name} in namespace {@code default}. */
    public static PodBuilder pod(String name) {
        return new PodBuilder(name);
    }

    /** A container named {@code name}. */
    public static ContainerBuilder ctr(String name) {
        return new ContainerBuilder(name);
    }

    /** Builds a {@link PodSpec}. */
    public static final class PodBuilder {
        private final String name;
        private String namespace = "default";
        private String uid = "";
        private String schedulerName = "";
        private String nodeName = "";
        private String runtimeClassName;
        private final List<Container> init = new ArrayList<>();
        private final List<Container> app = new ArrayList<>();

        PodBuilder(String name) {
            this.name = name;
        }

        public PodBuilder namespace(String ns) {
            this.namespace = ns;
            return this;
        }

        public PodBuilder uid(String u) {
            this.uid = u;
            return this;
        }

        public PodBuilder schedulerName(String s) {
            this.schedulerName = s;
            return this;
        }

        public PodBuilder nodeName(String n) {
            this.nodeName = n;
            return this;
        }

        public PodBuilder runtimeClassName(String r) {
            this.runtimeClassName = r;
            return this;
        }

        public PodBuilder init(ContainerBuilder c) {
            init.add(c.build());
            return this;
        }

        public PodBuilder container(ContainerBuilder c) {
            app.add(c.build());
            return this;
        }

        public PodSpec build() {
            return new PodSpec(name, namespace, uid, schedulerName, nodeName, runtimeClassName, Map.of(), Map.of(),
                    init, app);
        }
    }

    /** Builds a {@link Container}. */
    public static final class ContainerBuilder {
        private final String name;
        private final Map<String, String> limits = new LinkedHashMap<>();
        private final Map<String, String> requests = new LinkedHashMap<>();
        private final List<Container.EnvVar> env = new ArrayList<>();
        private boolean privileged;

        ContainerBuilder(String name) {
            this.name = name;
        }

        public ContainerBuilder limit(String resource, String quantity) {
            limits.put(resource, quantity);
            return this;
        }

        public ContainerBuilder request(String resource, String quantity) {
            requests.put(resource, quantity);
            return this;
        }

        public ContainerBuilder env(String n, String v) {
            env.add(new Container.EnvVar(n, v));
            return this;
        }

        public ContainerBuilder privileged() {
            this.privileged = true;
            return this;
        }

        public Container build() {
            return new Container(name, limits, requests, privileged, env);
        }
    }
}
