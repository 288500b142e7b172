package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.store.processor.ClearPodNodeProcessor;
import io.vgpu.state.store.processor.ConfirmLockProcessor;
import io.vgpu.state.store.processor.ConfirmProcessor;
import io.vgpu.state.store.processor.ExpireProcessor;
import io.vgpu.state.store.processor.ExpireQuotaProcessor;
import io.vgpu.state.store.processor.LockNodeProcessor;
import io.vgpu.state.store.processor.ObserveBoundProcessor;
import io.vgpu.state.store.processor.ObserveQuotaProcessor;
import io.vgpu.state.store.processor.RegisterNodeProcessor;
import io.vgpu.state.store.processor.PublishFactsProcessor;
import io.vgpu.state.store.processor.PublishSummaryProcessor;
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

/**
 * Compact serializers of the entry processors: they travel from the calling replica to the key's owner and
 * its backups, so their schema is as controlled as the values'. Registering them also keeps Hazelcast from
 * falling back to Java serialization for these {@code Serializable} records.
 */
final class ProcessorSerializers {

    private ProcessorSerializers() {
    }

    /** Every processor serializer. */
    static List<CompactSerializer<?>> all() {
        return List.of(
                RecordSerializer.of(RegisterNodeProcessor.class, "vgpu.RegisterNodeProcessor",
                        (w, p) -> w.writeCompact("inventory", p.inventory()),
                        r -> new RegisterNodeProcessor(r.readCompact("inventory"))),
                RecordSerializer.marker(RemoveNodeProcessor.class, "vgpu.RemoveNodeProcessor",
                        new RemoveNodeProcessor()),
                RecordSerializer.of(ReserveSlicesProcessor.class, "vgpu.ReserveSlicesProcessor",
                        (w, p) -> {
                            writePod(w, p.pod());
                            w.writeCompact("allocation", p.allocation());
                            w.writeInt64("nowMillis", p.nowMillis());
                            w.writeInt64("deadlineMillis", p.deadlineMillis());
                        },
                        r -> new ReserveSlicesProcessor(readPod(r), r.readCompact("allocation"),
                                r.readInt64("nowMillis"), r.readInt64("deadlineMillis"))),
                RecordSerializer.of(ConfirmProcessor.class, "vgpu.ConfirmProcessor",
                        (w, p) -> {
                            writePod(w, p.pod());
                            w.writeCompact("fallback", p.fallback());
                            w.writeInt64("nowMillis", p.nowMillis());
                        },
                        r -> new ConfirmProcessor(readPod(r), r.readCompact("fallback"), r.readInt64("nowMillis"))),
                RecordSerializer.of(ConfirmLockProcessor.class, "vgpu.ConfirmLockProcessor",
                        (w, p) -> {
                            writePod(w, p.pod());
                            w.writeCompact("fallback", p.fallback());
                            w.writeInt64("nowMillis", p.nowMillis());
                            w.writeInt64("lockTimeoutMillis", p.lockTimeoutMillis());
                        },
                        r -> new ConfirmLockProcessor(readPod(r), r.readCompact("fallback"), r.readInt64("nowMillis"),
                                r.readInt64("lockTimeoutMillis"))),
                RecordSerializer.of(ObserveBoundProcessor.class, "vgpu.ObserveBoundProcessor",
                        (w, p) -> {
                            writePod(w, p.pod());
                            w.writeCompact("allocation", p.allocation());
                        },
                        r -> new ObserveBoundProcessor(readPod(r), r.readCompact("allocation"))),
                RecordSerializer.of(ReleaseSlicesProcessor.class, "vgpu.ReleaseSlicesProcessor",
                        (w, p) -> w.writeString("podUid", p.podUid()),
                        r -> new ReleaseSlicesProcessor(r.readString("podUid"))),
                RecordSerializer.of(ReleaseReservationProcessor.class, "vgpu.ReleaseReservationProcessor",
                        (w, p) -> w.writeString("podUid", p.podUid()),
                        r -> new ReleaseReservationProcessor(r.readString("podUid"))),
                RecordSerializer.of(ExpireProcessor.class, "vgpu.ExpireProcessor",
                        (w, p) -> w.writeInt64("nowMillis", p.nowMillis()),
                        r -> new ExpireProcessor(r.readInt64("nowMillis"))),
                RecordSerializer.of(LockNodeProcessor.class, "vgpu.LockNodeProcessor",
                        (w, p) -> {
                            w.writeString("podNamespace", p.podNamespace());
                            w.writeString("podName", p.podName());
                            w.writeInt64("nowMillis", p.nowMillis());
                            w.writeInt64("timeoutMillis", p.timeoutMillis());
                        },
                        r -> new LockNodeProcessor(r.readString("podNamespace"), r.readString("podName"),
                                r.readInt64("nowMillis"), r.readInt64("timeoutMillis"))),
                RecordSerializer.of(UnlockNodeProcessor.class, "vgpu.UnlockNodeProcessor",
                        (w, p) -> {
                            w.writeString("podNamespace", p.podNamespace());
                            w.writeString("podName", p.podName());
                        },
                        r -> new UnlockNodeProcessor(r.readString("podNamespace"), r.readString("podName"))),
                RecordSerializer.of(TakeOverProcessor.class, "vgpu.TakeOverProcessor",
                        (w, p) -> w.writeInt64("past", p.past()),
                        r -> new TakeOverProcessor(r.readInt64("past"))),

                RecordSerializer.of(SetQuotaLimitsProcessor.class, "vgpu.SetQuotaLimitsProcessor",
                        (w, p) -> w.writeCompact("limits", p.limits()),
                        r -> new SetQuotaLimitsProcessor(r.readCompact("limits"))),
                RecordSerializer.of(ReserveQuotaProcessor.class, "vgpu.ReserveQuotaProcessor",
                        (w, p) -> {
                            w.writeString("podUid", p.podUid());
                            w.writeInt64("mem", p.mem());
                            w.writeInt64("cores", p.cores());
                            w.writeInt64("nowMillis", p.nowMillis());
                            w.writeInt64("deadlineMillis", p.deadlineMillis());
                        },
                        r -> new ReserveQuotaProcessor(r.readString("podUid"), r.readInt64("mem"),
                                r.readInt64("cores"), r.readInt64("nowMillis"), r.readInt64("deadlineMillis"))),
                RecordSerializer.of(ObserveQuotaProcessor.class, "vgpu.ObserveQuotaProcessor",
                        (w, p) -> {
                            w.writeString("podUid", p.podUid());
                            w.writeInt64("mem", p.mem());
                            w.writeInt64("cores", p.cores());
                        },
                        r -> new ObserveQuotaProcessor(r.readString("podUid"), r.readInt64("mem"),
                                r.readInt64("cores"))),
                RecordSerializer.of(ReleaseQuotaProcessor.class, "vgpu.ReleaseQuotaProcessor",
                        (w, p) -> w.writeString("podUid", p.podUid()),
                        r -> new ReleaseQuotaProcessor(r.readString("podUid"))),
                RecordSerializer.of(ExpireQuotaProcessor.class, "vgpu.ExpireQuotaProcessor",
                        (w, p) -> w.writeInt64("nowMillis", p.nowMillis()),
                        r -> new ExpireQuotaProcessor(r.readInt64("nowMillis"))),

                RecordSerializer.of(PublishSummaryProcessor.class, "vgpu.PublishSummaryProcessor",
                        (w, p) -> w.writeCompact("summary", p.summary()),
                        r -> new PublishSummaryProcessor(r.readCompact("summary"))),
                RecordSerializer.of(PublishFactsProcessor.class, "vgpu.PublishFactsProcessor",
                        (w, p) -> w.writeCompact("facts", p.facts()),
                        r -> new PublishFactsProcessor(r.readCompact("facts"))),

                RecordSerializer.of(SetPodNodeProcessor.class, "vgpu.SetPodNodeProcessor",
                        (w, p) -> w.writeString("node", p.node()),
                        r -> new SetPodNodeProcessor(r.readString("node"))),
                RecordSerializer.of(ClearPodNodeProcessor.class, "vgpu.ClearPodNodeProcessor",
                        (w, p) -> w.writeString("node", p.node()),
                        r -> new ClearPodNodeProcessor(r.readString("node"))));
    }

    private static void writePod(CompactWriter w, PodRef pod) {
        w.writeString("podUid", pod.uid());
        w.writeString("podNamespace", pod.namespace());
        w.writeString("podName", pod.name());
    }

    private static PodRef readPod(CompactReader r) {
        return new PodRef(r.readString("podUid"), r.readString("podNamespace"), r.readString("podName"));
    }
}
