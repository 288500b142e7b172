package io.vgpu.state.store;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Makes every Compact schema of the store known to the cluster while the member starts, off any event loop.
 *
 * <p>Why: a member serializes a value of a type whose schema it has not seen yet only after replicating that schema
 * to every member, and waits for it ({@code MemberSchemaService.put} joins the replication). The entry processors
 * are serialized on the calling thread, an event loop, and the outcomes on the owner's partition thread. A replica
 * restarted into a cluster with a member just killed (its leave not yet detected) blocked an event loop for 80 s on
 * its first node lock (the soak of 2026-12-07, docs/reliability.md): its sweeper stalled with it. Serializing one
 * value of each type here, in the blocking start, replicates them all up front; afterwards every schema is local.
 */
final class CompactSchemas {

    private CompactSchemas() {
    }

    /** Serializes one sample of every registered Compact type on {@code member} (blocking: the start's thread). */
    static void replicate(HazelcastInstance member) {
        SerializationService serialization = ((SerializationServiceSupport) member).getSerializationService();
        samples().forEach(serialization::toData);
    }

    /** The classes the samples are of; every class a registered serializer handles must be among them (tested). */
    static Set<Class<?>> sampled() {
        return samples().stream().map(Object::getClass).collect(Collectors.toSet());
    }

    /** The classes the store registers Compact serializers for. */
    static Set<Class<?>> registered() {
        return Stream.concat(ValueSerializers.all().stream(), ProcessorSerializers.all().stream())
                .map(CompactSerializer::getCompactClass).collect(Collectors.toSet());
    }

    /** One value of each registered type, every nested Compact field set (a null nested field registers nothing). */
    static List<Object> samples() {
        GpuDevice gpu = new GpuDevice("GPU-schema", 0, 10, 1000, 100, "NVIDIA", 0, "hami-core", List.of(), true);
        NodeInventory inventory = new NodeInventory("schema", List.of(gpu), Map.of(), Map.of());
        PodAllocation allocation = new PodAllocation(List.of(List.of(new ContainerDevice(0, gpu.id(), Vendor.NVIDIA,
                1, 1))), 0);
        NodeLockHolder holder = new NodeLockHolder("ns", "p", 1);
        NodeState state = new NodeState("schema", true, inventory.devices(), inventory.annotations(),
                inventory.pairScores(), Map.of("a", new PodCharge.Bound(allocation, "ns", "p")), holder);
        QuotaLimits limits = new QuotaLimits(1, true, 1, true);
        PodRef pod = new PodRef("a", "ns", "p");
        return List.of(inventory, state, allocation, holder, limits,
                new QuotaState("ns", limits, Map.of("a", new QuotaCharge(1, 1, 1))),
                NodeSummary.of(state), NodeFacts.of(state),
                new ReserveOutcome.Reserved(1), new ReserveOutcome.Refused(), new ReserveOutcome.AlreadyBound(allocation),
                new ReserveOutcome.UnknownNode(),
                new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION), new ConfirmOutcome.Refused(),
                new ConfirmOutcome.Missing(), new ConfirmOutcome.UnknownNode(),
                new LockOutcome.Acquired(1, holder), new LockOutcome.Held(1), new LockOutcome.Contended(holder),
                new LockOutcome.UnknownNode(),
                new ConfirmLockOutcome(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION),
                        new LockOutcome.Held(1)),
                new UnlockOutcome.Unlocked(), new UnlockOutcome.NotHolder(holder), new UnlockOutcome.NotLocked(),
                new QuotaOutcome.Reserved(1), new QuotaOutcome.Exceeded(true, true),
                new RegisterNodeProcessor(inventory), new RemoveNodeProcessor(),
                new ReserveSlicesProcessor(pod, allocation, 1, 2), new ConfirmProcessor(pod, allocation, 1),
                new ConfirmLockProcessor(pod, allocation, 1, 1), new ObserveBoundProcessor(pod, allocation),
                new ReleaseSlicesProcessor("a"), new ReleaseReservationProcessor("a"), new ExpireProcessor(1),
                new LockNodeProcessor("ns", "p", 1, 1),
                new UnlockNodeProcessor("ns", "p"), new SetQuotaLimitsProcessor(limits),
                new ReserveQuotaProcessor("a", 1, 1, 1, 1), new ObserveQuotaProcessor("a", 1, 1),
                new ReleaseQuotaProcessor("a"), new ExpireQuotaProcessor(1), new SetPodNodeProcessor("schema"),
                new ClearPodNodeProcessor("schema"), new PublishSummaryProcessor(NodeSummary.of(state)),
                new PublishFactsProcessor(NodeFacts.of(state)), new TakeOverProcessor(1));
    }
}
