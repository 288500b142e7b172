package io.vgpu.loadtest.gatling;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.simulate.ClusterGenerator;
import io.vgpu.simulate.ClusterSpec;
import io.vgpu.simulate.GpuModel;
import io.vgpu.simulate.SimulatedCluster;
import io.vgpu.simulate.SimulatedObjects;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.simulate.WorkloadGenerator;
import io.vgpu.simulate.WorkloadMix;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The target of the Gatling simulations: the real gateway in this JVM, started as {@code simulate} starts it
 * ({@link SimulatedCluster}: the fabric8 mock API server with the binding subresource, the synthetic nodes created in
 * it and registered through the informers, an embedded Hazelcast member, the simulated device plugin), plus the pod
 * stream of the simulator's generator. Sizes and rates come from system properties, so that the CI smoke run and a
 * full run share the simulations:
 * <ul>
 *   <li>{@code vgpu.load.nodes} (nodes × 8 GPUs), {@code vgpu.load.rate} (pods per second, open model),
 *   {@code vgpu.load.warmup} (seconds of ramp from 1/s to the rate, not asserted on separately),
 *   {@code vgpu.load.seconds} (seconds at the rate).</li>
 * </ul>
 * The gateway runs the spread node policy: under binpack, consecutive pods go to the same node and wait for its
 * lock (docs/benchmarks.md, "what bounds pods/s").
 *
 * <p>Pitfall 8 of DEPENDENCIES.md: the load generator shares this JVM and the 2 cores with the gateway, so latency
 * figures from these runs are indicative; the benchmark driver (docs/benchmarks.md) has the measured ones. The
 * simulations assert the error rate only.
 */
final class GatlingCluster implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    /** Held here: java.util.logging keeps loggers weakly, and the mock API server logs every request at INFO. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8");
    private static final String MIX = "mem=60,cores=15,pct=15,multi=10";

    private final SimulatedCluster cluster;
    private final List<String> nodeNames;
    private final String nodeNamesSuffix;
    private final WorkloadGenerator generator;

    private GatlingCluster(SimulatedCluster cluster, List<SyntheticNode> nodes) {
        this.cluster = cluster;
        this.nodeNames = cluster.nodeNames();
        StringBuilder b = new StringBuilder(",\"NodeNames\":[");
        for (int i = 0; i < nodeNames.size(); i++) {
            b.append(i == 0 ? "\"" : ",\"").append(nodeNames.get(i)).append('"');
        }
        this.nodeNamesSuffix = b.append("]}").toString();
        NvidiaConfig nvidia = NvidiaConfig.defaults();
        Set<String> types = new LinkedHashSet<>();
        List<String> uuids = new ArrayList<>();
        nodes.forEach(n -> {
            var view = io.vgpu.gateway.core.filter.FilterDecider.idleView(n.name(), n.annotations());
            view.devices().forEach(d -> {
                types.add(d.type());
                uuids.add(d.id());
            });
        });
        this.generator = new WorkloadGenerator(WorkloadMix.parse(MIX), new WorkloadGenerator.ResourceNames(
                nvidia.resourceCountName(), nvidia.resourceMemoryName(), nvidia.resourceMemoryPercentageName(),
                nvidia.resourceCoreName()), List.copyOf(types), uuids, Long.getLong("vgpu.load.seed", 42));
    }

    /** Starts the simulated cluster with {@code vgpu.load.nodes} nodes (default {@code defaultNodes}). */
    static GatlingCluster start(int defaultNodes) {
        quietLogs();
        int nodes = Integer.getInteger("vgpu.load.nodes", defaultNodes);
        List<SyntheticNode> synthetic = ClusterGenerator.generate(new ClusterSpec(nodes, 8,
                List.of(GpuModel.byName("A100-SXM4-80GB"), GpuModel.byName("H100"), GpuModel.byName("L4")), 10, 4),
                Long.getLong("vgpu.load.seed", 42));
        SimulatedCluster cluster = SimulatedCluster.start(new SimulatedCluster.Settings("spread", "spread",
                "127.0.0.1", 0, 0, 0, Duration.ZERO), synthetic);
        return new GatlingCluster(cluster, synthetic);
    }

    static int rate(int defaultRate) {
        return Integer.getInteger("vgpu.load.rate", defaultRate);
    }

    static Duration warmup() {
        return Duration.ofSeconds(Integer.getInteger("vgpu.load.warmup", 10));
    }

    static Duration steady() {
        return Duration.ofSeconds(Integer.getInteger("vgpu.load.seconds", 30));
    }

    String gatewayUrl() {
        return cluster.gatewayUrl();
    }

    String apiUrl() {
        return cluster.apiServer().url();
    }

    /**
     * An endless feeder of generated pods: {@code namespace}, {@code name}, {@code manifest} (the Pod as the user
     * wrote it), {@code review} (its AdmissionReview) and {@code admittedManifest} (with {@code schedulerName}
     * already set, for runs that skip the webhook).
     */
    Iterator<Map<String, Object>> pods() {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public synchronized Map<String, Object> next() {
                PodSpec pod = generator.next().pod();
                ObjectNode manifest = SimulatedObjects.pod(pod);
                ObjectNode admitted = manifest.deepCopy();
                ((ObjectNode) admitted.path("spec")).put("schedulerName", "hami-scheduler");
                return Map.of("namespace", pod.namespace(), "name", pod.name(), "manifest", manifest.toString(),
                        "review", SimulatedObjects.admissionReview(manifest, pod.namespace()).toString(),
                        "admittedManifest", admitted.toString());
            }
        };
    }

    /** The pod the API server would store: the manifest with the webhook's patch applied. */
    static String admitted(String manifest, String base64Patch) {
        try {
            return SimulatedObjects.admitted((ObjectNode) JSON.readTree(manifest), base64Patch).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ExtenderArgs} in NodeNames mode listing every node. */
    String filterArgs(String podJson) {
        return "{\"Pod\":" + podJson + nodeNamesSuffix;
    }

    static String bindingArgs(String namespace, String name, String uid, String node) {
        return "{\"PodName\":\"" + name + "\",\"PodNamespace\":\"" + namespace + "\",\"PodUID\":\"" + uid
                + "\",\"Node\":\"" + node + "\"}";
    }

    int nodeCount() {
        return nodeNames.size();
    }

    @Override
    public void close() {
        cluster.close();
    }

    private static void quietLogs() {
        System.setProperty("hazelcast.logging.type", "slf4j");
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            logback.getLogger("io.vgpu").setLevel(Level.ERROR);
            logback.getLogger("io.fabric8").setLevel(Level.ERROR);
            logback.getLogger("com.hazelcast").setLevel(Level.ERROR);
        }
        MOCK_LOG.setLevel(java.util.logging.Level.SEVERE);
    }
}
