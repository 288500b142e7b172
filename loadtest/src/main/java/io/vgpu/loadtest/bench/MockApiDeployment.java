package io.vgpu.loadtest.bench;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import io.vgpu.gateway.ClusterConfig;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.GatewayAssembly;
import io.vgpu.gateway.RunningGateway;
import io.vgpu.simulate.SimulatedCluster;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.StoreConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The gateway as {@code simulate} runs it ({@link SimulatedCluster}: the fabric8 CRUD mock API server with the
 * binding subresource, informers, the simulated device plugin releasing each lock right after the Binding), plus
 * {@code replicas - 1} more gateways started through the same {@link io.vgpu.gateway.GatewayAssembly#start} path that join the first
 * one's Hazelcast cluster and watch the same API server.
 */
final class MockApiDeployment implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final SimulatedCluster cluster;
    private final List<RunningGateway> extra;

    private MockApiDeployment(SimulatedCluster cluster, List<RunningGateway> extra) {
        this.cluster = cluster;
        this.extra = extra;
    }

    static MockApiDeployment start(List<SyntheticNode> nodes, int replicas) throws Exception {
        SimulatedCluster cluster = SimulatedCluster.start(new SimulatedCluster.Settings("spread", "spread",
                "127.0.0.1", 0, 0, 0, Duration.ZERO), nodes);
        List<RunningGateway> extra = new ArrayList<>();
        try {
            HazelcastInstance first = ((HazelcastClusterState) cluster.state()).member();
            Address address = first.getCluster().getLocalMember().getAddress();
            String members = address.getHost() + ":" + address.getPort();
            int partitions = first.getPartitionService().getPartitions().size();
            for (int i = 1; i < replicas; i++) {
                GatewayConfig config = GatewayConfig.fromEnv(Map.of("VGPU_PLAIN_HTTP", "true",
                        "VGPU_BIND_ADDRESS", "127.0.0.1", "VGPU_HTTP_PORT", "0", "VGPU_METRICS_PORT", "0",
                        "VGPU_NODE_SCHEDULER_POLICY", "spread", "VGPU_GPU_SCHEDULER_POLICY", "spread",
                        "VGPU_SHUTDOWN_TIMEOUT", "1s", "POD_NAME", "bench-mock-" + i));
                // the first member keeps no backups (simulate's single member); the others must match it
                ClusterConfig clusterConfig = new ClusterConfig(true, cluster.kubeconfig(), new StoreConfig(
                        first.getConfig().getClusterName(), List.of(members), "127.0.0.1", Benchmark.freePort(), 0, 0,
                        partitions), Duration.ofSeconds(25));
                extra.add(GatewayAssembly.start(config, clusterConfig).toCompletionStage().toCompletableFuture()
                        .get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            }
            for (RunningGateway r : extra) {
                awaitNodes(r, nodes.size());
            }
            return new MockApiDeployment(cluster, extra);
        } catch (Exception | Error e) {
            extra.forEach(r -> r.closeAndWait(Duration.ofSeconds(15)));
            cluster.close();
            throw e;
        }
    }

    private static void awaitNodes(RunningGateway replica, int nodes) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (replica.state().nodes().size() < nodes) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("a replica saw only " + replica.state().nodes().size() + " nodes");
            }
            Thread.sleep(20);
        }
    }

    /** The gateways' API ports. */
    int[] ports() {
        int[] ports = new int[1 + extra.size()];
        ports[0] = cluster.gatewayPort();
        for (int i = 0; i < extra.size(); i++) {
            ports[i + 1] = extra.get(i).apiPort();
        }
        return ports;
    }

    int apiServerPort() {
        return cluster.apiServer().port();
    }

    /** Binding requests the API server answered. */
    int bindings() {
        return cluster.apiServer().bindings().size();
    }

    @Override
    public void close() {
        for (int i = extra.size() - 1; i >= 0; i--) {
            extra.get(i).closeAndWait(Duration.ofSeconds(15));
        }
        cluster.close();
    }
}
