package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mixed cluster end to end (issue 13, acceptance): on the simulator's API server (fabric8's mock in CRUD mode),
 * device-plugin nodes (register annotations) and DRA nodes (label {@code vgpu.io/mode=dra}, slices only, no
 * annotation), HAMi-style pods for both at the same time — the device-plugin pods through the real gateway's
 * webhook, filter and bind over HTTP, offered every node; the DRA pods (annotation {@code vgpu.io/mode=dra})
 * through the same gateway's real {@code /webhook} ({@link DraWebhook}: translation, quota ticket, template in the
 * API server), their claims allocated by the stand-in allocator and written to the API server. Namespace
 * {@code team-0} has a GPU ResourceQuota. Then, from the API server alone, one ledger per card counts both modes
 * (devices annotations and claim allocations): no card's memory, cores or slots exceed its capacity, no pod of one
 * mode lands on a node of the other, and what is granted in {@code team-0} over both modes is within its quota
 * (DRA pods refused at admission with the ticket's message, device-plugin pods at filter as HAMi does). Nothing is
 * deleted in the run, so what is granted at the end is the most that was ever granted.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: the cluster start alone took 60 s under a load average of 18
class MixedClusterTest {

    private static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();
    /** The namespace with a GPU ResourceQuota, and its limits (MiB, percent of a card). */
    private static final String QUOTA_NS = "team-0";
    private static final long QUOTA_MEM = 24_000;
    private static final long QUOTA_CORES = 300;

    @Test
    void noCardExceedsItsCapacityAcrossBothModesNeitherModePlacesOnTheOthersNodesAndTheQuotaHolds() throws Exception {
        List<SyntheticNode> plugin = ClusterGenerator.generate(
                new ClusterSpec(2, 2, List.of(GpuModel.byName("T4")), 4, 0), 3);
        List<SyntheticNode> dra = ClusterGenerator.generate(
                new ClusterSpec(2, 2, List.of(GpuModel.byName("A100-SXM4-40GB")), 4, 0), 4).stream()
                .map(n -> new SyntheticNode(n.name().replace("gpu-node", "dra-node"), n.annotations())).toList();
        List<HasMetadata> draNodes = new ArrayList<>();
        dra.forEach(n -> draNodes.add(new NodeBuilder().withNewMetadata().withName(n.name())
                .addToLabels(DraNames.MODE_LABEL, DraNames.MODE_DRA).endMetadata().build()));
        List<PodSpec> pluginPods = Workloads.generate(plugin, NVIDIA, WorkloadMix.DEFAULT, 40, 3);
        List<PodSpec> draPods = Workloads.generate(dra, NVIDIA, WorkloadMix.DEFAULT, 40, 4).stream()
                .map(p -> new PodSpec("dra-" + p.name(), p.namespace(), "dra-" + p.uid(), p.schedulerName(),
                        p.nodeName(), p.runtimeClassName(), draAnnotated(p.annotations()), p.labels(),
                        p.initContainers(), p.containers())).toList();
        List<HasMetadata> preload = new ArrayList<>(draNodes);
        preload.add(new ResourceQuotaBuilder().withNewMetadata().withName("gpu").withNamespace(QUOTA_NS).endMetadata()
                .withNewSpec().addToHard("limits." + NVIDIA.resourceMemoryName(), new Quantity(Long.toString(QUOTA_MEM)))
                .addToHard("limits." + NVIDIA.resourceCoreName(), new Quantity(Long.toString(QUOTA_CORES)))
                .endSpec().build());

        try (SimulatedCluster running = SimulatedCluster.start(new SimulatedCluster.Settings("binpack", "spread",
                "127.0.0.1", 0, 0, 0, Duration.ZERO, Map.of(), preload), plugin)) {
            assertThat(running.nodeNames()).as("the gateway is offered the DRA nodes too")
                    .containsAll(dra.stream().map(SyntheticNode::name).toList());
            // a client of its own, as DraSimulation's: the DRA side's blocking writes wait up to 30 s per request
            // (the shared client's 10 s ran out once with three test classes at a load average of 24)
            KubernetesClient draClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                    .withMasterUrl(running.apiServer().url()).withRequestTimeout(30_000).build()).build();
            DraRun draRun = new DraRun(dra, new RequestDeriver(NVIDIA), "binpack", DraWrites.to(draClient));
            DraWebhook webhook = new DraWebhook(running.gatewayUrl(), draClient);
            Map<String, Integer> draRefusals = new ConcurrentHashMap<>();
            CompletableFuture<Integer> draBound = CompletableFuture.supplyAsync(
                    () -> submitAll(draRun, webhook, draPods, draRefusals));
            SimulationReport pluginReport = new GatewaySimulation(running, 2, NVIDIA).run(pluginPods, done -> { });
            Eventually.within(Duration.ofSeconds(90), "every DRA pod submitted", draBound::isDone);
            int bound = draBound.getNow(-1);

            assertThat(pluginReport.placed()).as("device-plugin pods placed").isGreaterThan(5);
            assertThat(bound).as("DRA pods bound").isGreaterThan(5);
            List<Pod> pods = running.client().pods().inAnyNamespace().list().getItems();
            assertThat(pods.stream().filter(p -> p.getMetadata().getName().startsWith("dra-"))
                    .filter(p -> p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()).count())
                    .as("DRA pods bound through the binding subresource").isEqualTo(bound);
            Set<String> draNames = dra.stream().map(SyntheticNode::name).collect(Collectors.toSet());
            for (Pod pod : pods) {
                String node = pod.getSpec().getNodeName();
                if (node == null || node.isEmpty()) {
                    continue;
                }
                boolean draPod = pod.getMetadata().getName().startsWith("dra-");
                assertThat(draNames.contains(node)).as("%s on %s", pod.getMetadata().getName(), node).isEqualTo(draPod);
            }
            assertWithinCapacity(running, pods);
            assertQuotaHolds(running, pods);
            assertThat(draRefusals.keySet()).as("DRA pods refused at admission over the quota, with the ticket's message")
                    .anyMatch(r -> r.startsWith("webhook denied: exceeding resource quota: namespace " + QUOTA_NS));
            assertThat(pluginReport.failuresByReason()).as("device-plugin pods refused at filter, as HAMi does")
                    .containsKey("ResourceQuotaNotFit");
            draClient.close();
        }
    }

    private static Map<String, String> draAnnotated(Map<String, String> annotations) {
        Map<String, String> out = new HashMap<>(annotations);
        out.put(DraNames.MODE_LABEL, DraNames.MODE_DRA);
        return out;
    }

    /** Each DRA pod through the gateway's real /webhook, then placed by the stand-in; refusals counted by message. */
    private static int submitAll(DraRun run, DraWebhook webhook, List<PodSpec> pods, Map<String, Integer> refusals) {
        int bound = 0;
        for (PodSpec pod : pods) {
            DraWebhook.Admission admission = webhook.admit(pod);
            if (admission instanceof DraWebhook.Admission.NotAdmitted n) {
                refusals.merge(n.reason(), 1, Integer::sum);
            } else if (admission instanceof DraWebhook.Admission.Admitted a
                    && run.submitAdmitted(a.pod(), a.entry(), a.template()) instanceof DraRun.Placement.Bound) {
                bound++;
            }
        }
        return bound;
    }

    /**
     * The namespace's quota over both modes: the memory and cores of every bound pod in {@link #QUOTA_NS}, from its
     * devices annotation (device-plugin mode) or its claim's allocation (DRA mode), within the ResourceQuota.
     */
    private static void assertQuotaHolds(SimulatedCluster running, List<Pod> pods) {
        long memory = 0;
        long cores = 0;
        int bound = 0;
        for (Pod pod : pods) {
            String allocated = pod.getMetadata().getAnnotations() == null ? null
                    : pod.getMetadata().getAnnotations().get(HamiAnnotations.DEVICES_ALLOCATED);
            if (!QUOTA_NS.equals(pod.getMetadata().getNamespace()) || pod.getSpec().getNodeName() == null
                    || allocated == null) {
                continue;
            }
            bound++;
            for (List<ContainerDevice> container : PodDevicesCodec.decode(allocated).value()) {
                for (ContainerDevice d : container) {
                    memory += d.usedmem();
                    cores += d.usedcores();
                }
            }
        }
        for (ResourceClaim claim : running.client().resources(ResourceClaim.class).inNamespace(QUOTA_NS).list().getItems()) {
            if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
                continue;
            }
            bound++;
            for (DeviceRequestAllocationResult r : claim.getStatus().getAllocation().getDevices().getResults()) {
                Map<String, Quantity> consumed = r.getConsumedCapacity();
                memory += Quantity.getAmountInBytes(consumed.get(SliceBuilder.MEMORY)).longValueExact() >> 20;
                cores += Quantity.getAmountInBytes(consumed.get(SliceBuilder.CORES)).longValueExact();
            }
        }
        assertThat(bound).as("pods placed in %s", QUOTA_NS).isPositive();
        assertThat(memory).as("GPU memory (MiB) granted in %s", QUOTA_NS).isLessThanOrEqualTo(QUOTA_MEM);
        assertThat(cores).as("GPU cores granted in %s", QUOTA_NS).isLessThanOrEqualTo(QUOTA_CORES);
    }

    /**
     * One ledger per card UUID, both modes counted: {memory MiB, cores} from devices annotations plus claim
     * allocations, device-plugin shares against the split count, DRA slots against the slice's 1000.
     */
    private static void assertWithinCapacity(SimulatedCluster running, List<Pod> pods) {
        Map<String, GpuDevice> cards = new HashMap<>();
        for (Node n : running.client().nodes().list().getItems()) {
            String register = n.getMetadata().getAnnotations() == null ? null
                    : n.getMetadata().getAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER);
            if (register != null) {
                NodeRegisterCodec.decode(register).value().forEach(d -> cards.put(d.id(), d));
            }
        }
        Map<String, String> uuidOf = new HashMap<>(); // pool/device -> uuid
        Map<String, Map<String, BigInteger>> sliceCapacity = new HashMap<>();
        for (ResourceSlice s : running.client().resources(ResourceSlice.class).list().getItems()) {
            s.getSpec().getDevices().forEach(d -> {
                String uuid = d.getAttributes().get("uuid").getString();
                uuidOf.put(s.getSpec().getPool().getName() + "/" + d.getName(), uuid);
                Map<String, BigInteger> c = new HashMap<>();
                d.getCapacity().forEach((k, v) -> c.put(k, Quantity.getAmountInBytes(v.getValue()).toBigInteger()));
                sliceCapacity.put(uuid, c);
            });
        }
        Map<String, long[]> granted = new HashMap<>();
        for (Pod pod : pods) {
            String allocated = pod.getMetadata().getAnnotations() == null ? null
                    : pod.getMetadata().getAnnotations().get(HamiAnnotations.DEVICES_ALLOCATED);
            if (pod.getSpec().getNodeName() == null || allocated == null) {
                continue;
            }
            for (List<ContainerDevice> container : PodDevicesCodec.decode(allocated).value()) {
                for (ContainerDevice d : container) {
                    long[] g = granted.computeIfAbsent(d.uuid(), k -> new long[4]);
                    g[0] += d.usedmem();
                    g[1] += d.usedcores();
                    g[2] += 1;
                }
            }
        }
        int claims = 0;
        for (ResourceClaim claim : running.client().resources(ResourceClaim.class).inAnyNamespace().list().getItems()) {
            if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
                continue;
            }
            claims++;
            for (DeviceRequestAllocationResult r : claim.getStatus().getAllocation().getDevices().getResults()) {
                String uuid = uuidOf.get(r.getPool() + "/" + r.getDevice());
                long[] g = granted.computeIfAbsent(uuid, k -> new long[4]);
                Map<String, Quantity> consumed = r.getConsumedCapacity();
                g[0] += Quantity.getAmountInBytes(consumed.get(SliceBuilder.MEMORY)).longValueExact() >> 20;
                g[1] += Quantity.getAmountInBytes(consumed.get(SliceBuilder.CORES)).longValueExact();
                g[3] += Quantity.getAmountInBytes(consumed.get(SliceBuilder.SLOTS)).longValueExact();
            }
        }
        assertThat(claims).as("allocated claims in the API server").isPositive();
        for (Map.Entry<String, long[]> e : granted.entrySet()) {
            String uuid = e.getKey();
            long[] g = e.getValue();
            GpuDevice card = cards.get(uuid);
            Map<String, BigInteger> slice = sliceCapacity.get(uuid);
            assertThat(card != null || slice != null).as("card %s is registered or published", uuid).isTrue();
            long memory = card != null ? card.devmem() : slice.get(SliceBuilder.MEMORY).longValueExact() >> 20;
            long cores = card != null ? card.devcore() : slice.get(SliceBuilder.CORES).longValueExact();
            assertThat(g[0]).as("memory of %s", uuid).isLessThanOrEqualTo(memory);
            assertThat(g[1]).as("cores of %s", uuid).isLessThanOrEqualTo(cores);
            assertThat(g[2]).as("device-plugin shares of %s", uuid).isLessThanOrEqualTo(card == null ? 0 : card.count());
            assertThat(g[3]).as("DRA slots of %s", uuid)
                    .isLessThanOrEqualTo(slice == null ? 0 : slice.get(SliceBuilder.SLOTS).longValueExact());
        }
    }
}
