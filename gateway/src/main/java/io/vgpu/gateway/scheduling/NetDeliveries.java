package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeObservation;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The nets' deliveries of owned nodes to {@link NodeRegistrations} (the 15 s
 * redelivery of every cached node ({@link IngestRepair}), the end of a resync), each a forced {@code registerNode}: at most
 * {@value #IN_FLIGHT} in flight, the rest queued in order, never blocking a thread. The redelivery hands over every
 * owned node in one loop, and replicas started together deliver together: the 3-replica cycle row of 2026-12-07 had
 * 1,000 of these registrations in flight in one 10 s window (mean 139–362 ms), queued on the partition threads ahead
 * of the decisions' own calls.
 * <pre>
 *   a net delivers node N ──── N queued already ──► the queued one takes this observation (charges stored: either)
 *                          └── otherwise ─────────► queued
 *   an informer event of N, N queued ─────────────► the queued one takes the event's observation
 *   N deleted, N queued ──────────────────────────► dropped
 *   N's turn ─────────── N still owned ───────────► delivered as it was observed last
 * </pre>
 * A queued delivery is of the node as observed last, not as it was when queued: written late, an older observation
 * would overwrite what a newer event registered (or re-register a node deleted meanwhile).
 */
final class NetDeliveries {

    /** As {@link StoredReads#IN_FLIGHT}: enough to keep the partition threads busy, not to queue on them. */
    static final int IN_FLIGHT = 16;

    private final IngestWindow window = new IngestWindow(IN_FLIGHT);
    private final Map<String, Delivery> queued = new ConcurrentHashMap<>();
    /** Delivers a node (with whether its charges are stored); completes when what it wrote is stored. */
    private final BiFunction<NodeObservation, Boolean, CompletionStage<?>> deliver;

    NetDeliveries(BiFunction<NodeObservation, Boolean, CompletionStage<?>> deliver) {
        this.deliver = deliver;
    }

    /** A net's delivery of {@code node}: queued, or merged into the one queued for it already. */
    void offer(NodeObservation node, boolean chargesStored) {
        boolean[] first = {false};
        queued.compute(node.name(), (name, earlier) -> {
            first[0] = earlier == null;
            return new Delivery(node, chargesStored || earlier != null && earlier.chargesStored());
        });
        if (first[0]) {
            window.submit(() -> start(node.name()));
        }
    }

    /** An informer event of {@code node}: a queued delivery of it takes this observation. */
    void observed(NodeObservation node) {
        queued.computeIfPresent(node.name(), (name, earlier) -> new Delivery(node, earlier.chargesStored()));
    }

    /** The node was deleted: a queued delivery of it is dropped. */
    void forget(String node) {
        queued.remove(node);
    }

    private CompletionStage<?> start(String node) {
        Delivery next = queued.remove(node);
        if (next == null) {
            return CompletableFuture.completedFuture(null); // dropped: the node was deleted
        }
        return deliver.apply(next.node(), next.chargesStored());
    }

    private record Delivery(NodeObservation node, boolean chargesStored) {
    }
}
