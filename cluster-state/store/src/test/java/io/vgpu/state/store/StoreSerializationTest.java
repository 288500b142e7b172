package io.vgpu.state.store;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;
import io.vgpu.state.model.Vendor;
import io.vgpu.state.store.processor.ClearPodNodeProcessor;
import io.vgpu.state.store.processor.ConfirmLockProcessor;
import io.vgpu.state.store.processor.ConfirmProcessor;
import io.vgpu.state.store.processor.ExpireProcessor;
import io.vgpu.state.store.processor.ExpireQuotaProcessor;
import io.vgpu.state.store.processor.LockNodeProcessor;
import io.vgpu.state.store.processor.ObserveBoundProcessor;
import io.vgpu.state.store.processor.ObserveQuotaProcessor;
import io.vgpu.state.store.processor.PublishFactsProcessor;
import io.vgpu.state.store.processor.PublishSummaryProcessor;
import io.vgpu.state.store.processor.RegisterNodeProcessor;
import io.vgpu.state.store.processor.ReleaseQuotaProcessor;
import io.vgpu.state.store.processor.ReleaseReservationProcessor;
import io.vgpu.state.store.processor.ReleaseSlicesProcessor;
import io.vgpu.state.store.processor.RemoveNodeProcessor;
import io.vgpu.state.store.processor.ReserveQuotaProcessor;
import io.vgpu.state.store.processor.ReserveSlicesProcessor;
import io.vgpu.state.store.processor.SetPodNodeProcessor;
import io.vgpu.state.store.processor.SetQuotaLimitsProcessor;
import io.vgpu.state.store.processor.TakeOverProcessor;
import io.vgpu.state.store.processor.UnlockNodeProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

/** Every stored value, outcome and processor goes through our Compact serializers and comes back equal. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreSerializationTest {

    private HazelcastClusterState single;
    private SerializationService serialization;

    @BeforeAll
    void startMember() {
        single = StoreFixtures.startOne(clusterOf(1, 0, 0));
        serialization = ((SerializationServiceSupport) single.member()).getSerializationService();
    }

    @AfterAll
    void stopMember() {
        StoreFixtures.terminate(List.of(single));
    }

    private static GpuDevice migCard() {
        MigProfile profile = new MigProfile("1g.10gb", 10240, 14, 1, List.of(new MigPlacement(0, 1),
                new MigPlacement(1, 1)));
        return new GpuDevice("GPU-mig", 3, 7, 81920, 100, "NVIDIA A100-SXM4-80GB", 1, "mig", List.of(profile), false);
    }

    private static PodAllocation initAndApps() {
        return new PodAllocation(List.of(
                List.of(new ContainerDevice(1, "GPU-a", Vendor.NVIDIA, 1000, 10)),
                List.of(),
                List.of(new ContainerDevice(1, "GPU-a", Vendor.NVIDIA, 2000, 20),
                        new ContainerDevice(2, "GPU-b", Vendor.NVIDIA, 3000, 30))), 1);
    }

    static Stream<Object> samples() {
        Map<String, Map<String, Integer>> scores = new LinkedHashMap<>();
        scores.put("GPU-a", Map.of("GPU-b", 100));
        scores.put("GPU-b", Map.of("GPU-a", 100));
        NodeInventory inventory = new NodeInventory("n1", List.of(gpu("GPU-a", 10, 8000), migCard()),
                Map.of("hami.io/device-cordon", "GPU-b"), scores);
        NodeLockHolder holder = new NodeLockHolder("ns", "p", 42);
        NodeState state = new NodeState("n1", true, inventory.devices(), inventory.annotations(), scores,
                Map.of("a", new PodCharge.Reserved(initAndApps(), 99, "ns", "pa"),
                        "b", new PodCharge.Bound(slice("GPU-a", 1), "ns", "pb")), holder);
        QuotaLimits limits = new QuotaLimits(1000, true, 0, false);
        return Stream.of(
                inventory, state, NodeState.absent("n2"), initAndApps(), holder, limits,
                new QuotaState("ns", limits, Map.of("a", new QuotaCharge(1, 2, 3),
                        "b", new QuotaCharge(4, 5, QuotaCharge.NO_DEADLINE))),
                new ReserveOutcome.Reserved(7), new ReserveOutcome.Refused(), new ReserveOutcome.AlreadyBound(initAndApps()),
                new ReserveOutcome.UnknownNode(),
                new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED), new ConfirmOutcome.Refused(),
                new ConfirmOutcome.Missing(), new ConfirmOutcome.UnknownNode(),
                new LockOutcome.Acquired(5, null), new LockOutcome.Acquired(5, holder), new LockOutcome.Held(3),
                new LockOutcome.Contended(holder), new LockOutcome.UnknownNode(),
                new ConfirmLockOutcome(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION),
                        new LockOutcome.Contended(holder)), new ConfirmLockOutcome(new ConfirmOutcome.Missing(), null),
                new UnlockOutcome.Unlocked(), new UnlockOutcome.NotHolder(holder), new UnlockOutcome.NotLocked(),
                new QuotaOutcome.Reserved(QuotaCharge.NO_DEADLINE), new QuotaOutcome.Exceeded(false, true),
                new RegisterNodeProcessor(inventory), new RemoveNodeProcessor(),
                new ReserveSlicesProcessor(pod("a"), initAndApps(), 1, 2), new ConfirmProcessor(pod("a"), null, 3),
                new ConfirmProcessor(pod("a"), slice("GPU-a", 9), 3), new ObserveBoundProcessor(pod("a"), slice("x", 1)),
                new ReleaseSlicesProcessor("a"), new ReleaseReservationProcessor("a"), new ExpireProcessor(4),
                new LockNodeProcessor("ns", "p", 5, 6),
                new UnlockNodeProcessor("ns", "p"), new SetQuotaLimitsProcessor(limits),
                new ReserveQuotaProcessor("a", 1, 2, 3, 4), new ObserveQuotaProcessor("a", 1, 2),
                new ReleaseQuotaProcessor("a"), new ExpireQuotaProcessor(9), new SetPodNodeProcessor("n1"),
                new ClearPodNodeProcessor("n1"), new ConfirmLockProcessor(pod("a"), null, 3, 4),
                NodeSummary.of(state.withVersion(7)), NodeSummary.of(NodeState.absent("n2")),
                new PublishSummaryProcessor(NodeSummary.of(state).asReset()),
                NodeFacts.of(state.withVersion(3)), new PublishFactsProcessor(NodeFacts.of(state).asReset()),
                new ConfirmLockProcessor(pod("a"), slice("GPU-a", 9), 3, 4), new TakeOverProcessor(1L << 32));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void roundTripsThroughCompact(Object value) {
        Data data = serialization.toData(value);

        assertThat(data.getType()).isIn(SerializationConstants.TYPE_COMPACT,
                SerializationConstants.TYPE_COMPACT_WITH_SCHEMA);
        assertThat((Object) serialization.toObject(data)).isEqualTo(value);
    }

    @Test
    void nodeValuesStaySmall() {
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(gpu("GPU-0123456789abcdef0123456789ab-" + i, 10, 81920));
        }
        Map<String, Map<String, Integer>> nvlinkMesh = new LinkedHashMap<>();
        for (GpuDevice a : devices) {
            Map<String, Integer> row = new LinkedHashMap<>();
            devices.stream().filter(b -> b != a).forEach(b -> row.put(b.id(), 200));
            nvlinkMesh.put(a.id(), row);
        }

        int typical = bytes(new NodeState("gpu-node-0001", true, devices, Map.of(), Map.of(), pods(devices, 8), null));
        int busy = bytes(new NodeState("gpu-node-0001", true, devices, Map.of(), nvlinkMesh, pods(devices, 16), null));

        // DESIGN.md §3: ≈ 2 KB per node, since every change fans out to every replica's listener
        assertThat(typical).as("8 GPUs, 8 pods").isLessThan(2048);
        assertThat(busy).as("8 GPUs with a full NVLink score mesh, 16 pods").isLessThan(3584);
    }

    @Test
    void aSummaryIsSizedByTheGpusNotByThePods() {
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(gpu("GPU-0123456789abcdef0123456789ab-" + i, 10, 81920));
        }

        int ten = bytes(NodeSummary.of(new NodeState("gpu-node-0001", true, devices, Map.of(), Map.of(),
                pods(devices, 10), null, 12)));
        int hundred = bytes(NodeSummary.of(new NodeState("gpu-node-0001", true, devices, Map.of(), Map.of(),
                pods(devices, 100), new NodeLockHolder("team-a", "trainer-1", 5), 120)));
        int fullNode = bytes(new NodeState("gpu-node-0001", true, devices, Map.of(), Map.of(), pods(devices, 100),
                null, 120));

        System.out.printf("summary of 8 GPUs: %d bytes at 10 pods, %d at 100 pods (the node value: %d)%n", ten,
                hundred, fullNode);
        assertThat(hundred - ten).as("10 vs 100 pods (the lock holder's names aside)").isLessThan(64);
        assertThat(hundred).isLessThan(fullNode / 4);
        // usage only (issue 14: ≤ 1 KiB per decision of a few summaries): 12 bytes of use per GPU, no facts
        int oneGpu = bytes(NodeSummary.of(new NodeState("gpu-node-0001", true, devices.subList(0, 1), Map.of(),
                Map.of(), pods(devices.subList(0, 1), 10), null, 12)));
        assertThat(ten - oneGpu).as("7 more GPUs").isLessThanOrEqualTo(7 * 16);
        assertThat(ten).as("8 GPUs, unlocked").isLessThanOrEqualTo(192);
    }

    private int bytes(Object value) {
        return serialization.toData(value).totalSize();
    }

    private static Map<String, PodCharge> pods(List<GpuDevice> devices, int count) {
        Map<String, PodCharge> charges = new LinkedHashMap<>();
        for (int p = 0; p < count; p++) {
            charges.put("5f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e" + (10 + p),
                    new PodCharge.Bound(slice(devices.get(p % devices.size()).id(), 10240), "team-a", "trainer-" + p));
        }
        return charges;
    }
}
