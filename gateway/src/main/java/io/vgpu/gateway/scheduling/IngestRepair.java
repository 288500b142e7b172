package io.vgpu.gateway.scheduling;

import io.vertx.core.Vertx;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.state.model.ClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What keeps the shared state equal to the informer caches whatever moved meanwhile (DESIGN.md §3 "Ingest once"). A
 * replica ingests an event only for the node keys it owns, so an event that arrives while its key changes owner
 * (both members answer "not mine"), or one lost with a dead owner, is applied by nobody. These nets catch it:
 * <pre>
 *   the store says keys moved here (migration, promotion, lost partition) ──► resync those keys from the caches
 *   the informers have listed ({@link #listed}) ───────────────────────────► resync every owned key
 *   every {@value #REPAIR_EVERY_MILLIS} ms (first at a random point) ───────► resync every owned key
 *   every {@value #HANDSHAKE_EVERY_MILLIS} ms (first at a random point) ────► every cached node redelivered
 *   every {@value #AWAITING_EVERY_MILLIS} ms, once listed ──────────────────────► nodes awaiting their first
 *                                                                        registration: their pods charged, then them
 *   every {@value #PHANTOMS_EVERY_MILLIS} ms, once listed ─────────────────────► owned Bound charges no cached pod
 *                                                                        accounts for, seen in two ticks running:
 *                                                                        live read, released ({@link PhantomSweep})
 * </pre>
 * The last is the fast net for a Bound charge a replica killed before its pod-index write left behind
 * (docs/reliability.md, p-5175): released two ticks and one live read after the cache shows the pod elsewhere or gone,
 * inside the chaos checker's 15 s bound for a move, which the 30 s resync misses.
 *
 * <p>A resync writes nothing while the state matches the caches. Every process that ingests (the gateway's
 * composition root, the benchmark's replicas) starts exactly this: a replica wired without it keeps a pod whose event
 * fell between two owners uncharged for good (the benchmark's stall of 2026-12-02, docs/benchmarks.md).
 */
public final class IngestRepair implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngestRepair.class);

    /**
     * Every cached node delivered again: handshake expiry, and registrations lost in flight or skipped against an
     * owned copy that lagged ({@link NodeRegistrations}: a redelivery always writes).
     */
    static final long HANDSHAKE_EVERY_MILLIS = 15_000;
    /** A full resync of the owned keys: changes lost in flight (owner changes are resynced at once already). */
    static final long REPAIR_EVERY_MILLIS = 30_000;
    /**
     * How often the nodes awaiting their first registration are registered (after their pods): how long a new node
     * waits to be offered to {@code /filter}.
     */
    static final long AWAITING_EVERY_MILLIS = 200;
    /**
     * How often the owned Bound charges are matched against the informer cache by {@link PhantomSweep}: a phantom
     * charge lives at most two of these plus one live read.
     */
    static final long PHANTOMS_EVERY_MILLIS = 3_000;

    private final Vertx vertx;
    private final ClusterState state;
    private final StateIngest ingest;
    private final ClusterCache cache;
    private final long handshakes;
    private final long repairs;
    private final long awaiting;
    private final long phantoms;
    /** A registration of awaiting nodes is in flight: the next tick skips. */
    private final AtomicBoolean registering = new AtomicBoolean();
    /** The resync after the informers' first list has been stored. */
    private volatile boolean ingested;

    private IngestRepair(Vertx vertx, ClusterState state, StateIngest ingest, ClusterCache cache,
                         ClusterEvents listeners, boolean jittered) {
        this.vertx = vertx;
        this.state = state;
        this.ingest = ingest;
        this.cache = cache;
        state.onResync(keys -> logged("resync of moved keys", ingest.resync(keys, cache)));
        // the two nets that touch every owned node first run at a random point of their period: replicas started
        // together fired them together, ~1,000 store calls at once on the partition threads (the 3-replica cycle row
        // of 2026-12-07); each replica's own calls are paced further by StoredReads and NetDeliveries
        this.handshakes = vertx.setPeriodic(firstRun(HANDSHAKE_EVERY_MILLIS, jittered), HANDSHAKE_EVERY_MILLIS,
                id -> cache.nodes().forEach(listeners::nodeRedelivered));
        this.repairs = vertx.setPeriodic(firstRun(REPAIR_EVERY_MILLIS, jittered), REPAIR_EVERY_MILLIS,
                id -> resyncOwned());
        this.awaiting = vertx.setPeriodic(AWAITING_EVERY_MILLIS, id -> registerAwaiting());
        PhantomSweep sweep = new PhantomSweep(state, ingest.moves, cache);
        // a pass over every owned charge (tens of ms at 67,000 charges): on a worker, not on an event loop
        this.phantoms = vertx.setPeriodic(PHANTOMS_EVERY_MILLIS, id -> logged("phantom sweep",
                vertx.executeBlocking(sweep::sweep, false).toCompletionStage().thenCompose(swept -> swept)));
    }

    /**
     * Starts the nets for one replica. Call it before the informers start, so that no key moves here unseen.
     *
     * @param vertx     runs the periodic nets (on an event loop: they only submit work; the phantom sweep's pass over
     *                  the owned charges on a worker)
     * @param state     the shared state (its resync trigger, its ownership)
     * @param ingest    the replica's ingest
     * @param cache     the informer caches it resyncs from
     * @param listeners every informer listener of the replica ({@code ingest} among them): the periodic node
     *                  redelivery goes to all of them, as an informer resync would
     */
    public static IngestRepair start(Vertx vertx, ClusterState state, StateIngest ingest, ClusterCache cache,
                                     ClusterEvents listeners) {
        return start(vertx, state, ingest, cache, listeners, true);
    }

    /**
     * As above; with {@code jittered} false, the redelivery and the resync of every owned key first run one whole
     * period after the start instead of at a random point of it (tests that must know which net did a repair).
     */
    public static IngestRepair start(Vertx vertx, ClusterState state, StateIngest ingest, ClusterCache cache,
                                     ClusterEvents listeners, boolean jittered) {
        return new IngestRepair(vertx, state, ingest, cache, listeners, jittered);
    }

    /**
     * The informers have listed: resyncs every key owned now (keys this member got while it joined, before the
     * caches held anything to resync from). Returns at once; the stage completes when the resync is stored.
     */
    public CompletionStage<Void> listed() {
        return resyncOwned().whenComplete((v, e) -> ingested = true);
    }

    /**
     * Whether the first list has been ingested: every bound pod the informers listed is charged on the keys this
     * replica owned then, and their nodes registered ({@code /readyz}'s "ingest"). Stays true.
     */
    public boolean ingested() {
        return ingested;
    }

    private void registerAwaiting() {
        if (!cache.hasSynced() || !registering.compareAndSet(false, true)) {
            return;
        }
        logged("registration of awaiting nodes", ingest.registerAwaiting(cache))
                .whenComplete((v, e) -> registering.set(false));
    }

    private CompletionStage<Void> resyncOwned() {
        return logged("resync of owned keys", ingest.resync(state::ownsNode, cache));
    }

    /** When a net of {@code period} ms first runs: at a random point of its first period, or at its end. */
    private static long firstRun(long period, boolean jittered) {
        return jittered ? ThreadLocalRandom.current().nextLong(1, period + 1) : period;
    }

    private static CompletionStage<Void> logged(String what, CompletionStage<Void> stage) {
        return stage.whenComplete((v, e) -> {
            if (e != null) {
                LOG.warn("{} failed: {}", what, e.toString());
            }
        });
    }

    /** Stops the periodic nets (the store's resync trigger goes with the store). */
    @Override
    public void close() {
        vertx.cancelTimer(handshakes);
        vertx.cancelTimer(repairs);
        vertx.cancelTimer(awaiting);
        vertx.cancelTimer(phantoms);
    }
}
