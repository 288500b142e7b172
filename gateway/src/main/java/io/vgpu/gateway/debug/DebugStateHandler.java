package io.vgpu.gateway.debug;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.core.draview.DraSnapshot;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.store.HazelcastClusterState;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code GET /debug/state} on the metrics listener: a read-only JSON dump of THIS replica's local copy of the nodes
 * whose keys it owns (their full values, with pod charges and lock: full node values live only with their key's
 * owner and backup, DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"), for invariant checkers (the chaos
 * harness unions every replica's dump) and for people debugging a cluster. The replicas' dumps together hold every
 * node; during a migration a node may be in two dumps or, for a moment, in none. Each shows the owner's local copy,
 * which lags the authoritative value by its listener latency. Carries the same pod names the {@code hami_vgpu_*} metrics already carry; no secrets.
 *
 * <pre>
 * {"replica":"r1","nowMillis":1700000000000,"ready":true,
 *  "cluster":{"members":3,"localMember":"127.0.0.1:5701","clusterSafe":true},
 *  "nodes":[{"name":"n1","owned":true,"registered":true,"version":42,
 *            "devices":"&lt;hami.io/node-nvidia-register value&gt;",
 *            "charges":[{"uid":"…","namespace":"ns","name":"p","state":"Reserved","deadlineMillis":1700000025000,
 *                        "initCount":0,"devices":"&lt;hami.io/vgpu-devices-allocated value&gt;"}],
 *            "lock":{"namespace":"ns","name":"p","sinceMillis":1700000000000}}],
 *  "view":[{"name":"n1","version":41,"devices":[{"id":"GPU-…","used":1,"usedmem":4000,"usedcores":30}]}]}
 * </pre>
 * {@code view} is what this replica scores on: every registered node of its summary-fed view ({@link NodeView}, any
 * owner), per card the slots, MiB and cores its charges use (reservations until swept, and bindings), in
 * registration order; capacities are not repeated (a checker compares with the cards as it knows them). A node's
 * usage there is one authoritative value of it, possibly older than its owner's copy above. Both carry the
 * {@code version} of the node value they show (the view: of the value its summary was made from; -1 when none), so a
 * checker compares a view with its owner's copy only where both show the same value.
 * Devices and allocations use HAMi's own annotation encodings ({@link NodeRegisterCodec}, {@link PodDevicesCodec}),
 * so a reader decodes them with the same codecs. {@code lock} is null when unlocked; {@code deadlineMillis} is
 * present on reservations only. {@code clusterSafe} ({@code PartitionService.isClusterSafe}: every backup in sync,
 * no migration running) is computed on threads of this handler's own, and requests within a second of a dump's start
 * share it: {@code isClusterSafe} asks every member and can block for minutes (a call in flight when a member is
 * killed, partitions migrating on a loaded machine), and a checker probing every 100 ms must never take the shared
 * worker pool that {@code /filter}, {@code /bind} and the webhook offload to (a soak's full restart never looked safe
 * with every shared worker blocked in this check).
 *
 * <p>DRA-mode nodes (issue 13 item 3) are under {@code dra} ({@link DraDump}): their cards as their ResourceSlices
 * publish them and the claims' shares of each; {@code nodes} are the device-plugin side (HAMi's wire).
 */
public final class DebugStateHandler implements Handler<RoutingContext> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** This handler's own threads: the most dumps that can hang in a cluster-safety call at once. */
    private static final int THREADS = 16;
    /** Requests within this long of a dump's start share it. */
    private static final long SHARE_MILLIS = 1_000;

    private final Vertx vertx;
    private final HazelcastClusterState state;
    private final String replica;
    private final BooleanSupplier ready;
    private final Clock clock;
    private final Supplier<DraSnapshot> dra;
    private final WorkerExecutor worker;
    private final AtomicReference<Flight> running = new AtomicReference<>();

    /**
     * @param vertx   runs the cluster-safety check on a worker
     * @param state   the store whose local snapshot is dumped
     * @param replica this replica's name
     * @param ready   whether {@code /readyz} would answer ready
     * @param clock   the time source for {@code nowMillis}
     */
    public DebugStateHandler(Vertx vertx, HazelcastClusterState state, String replica, BooleanSupplier ready,
                             Clock clock) {
        this(vertx, state, replica, ready, clock, () -> DraSnapshot.EMPTY);
    }

    /**
     * @param dra the DRA-mode cards and their shares, dumped under {@code dra}
     */
    public DebugStateHandler(Vertx vertx, HazelcastClusterState state, String replica, BooleanSupplier ready,
                             Clock clock, Supplier<DraSnapshot> dra) {
        this.dra = dra;
        this.vertx = vertx;
        this.state = state;
        this.replica = replica;
        this.ready = ready;
        this.clock = clock;
        this.worker = vertx.createSharedWorkerExecutor("vgpu-debug-state", THREADS);
    }

    @Override
    public void handle(RoutingContext ctx) {
        dumpOnce().onComplete(done -> {
            if (done.failed()) {
                ctx.fail(done.cause());
                return;
            }
            ctx.response().putHeader("Content-Type", "application/json").end(done.result());
        });
    }

    /** Releases this handler's threads. */
    public Future<Void> close() {
        return worker.close();
    }

    /**
     * The dump under way if it started less than {@link #SHARE_MILLIS} ago, else a new one on this handler's own
     * threads. Sharing keeps a probe storm to one dump a second; not sharing an older one keeps the answer fresh when
     * a cluster-safety call hangs (one in flight while a member is killed waited two minutes for it in a soak, and a
     * strictly single dump made every probe wait with it). At most {@link #THREADS} hung calls; later dumps queue.
     */
    private Future<String> dumpOnce() {
        long now = clock.millis();
        Flight current = running.get();
        if (current != null && now - current.startedMillis() < SHARE_MILLIS) {
            return current.answer().future();
        }
        Flight next = new Flight(Promise.promise(), now);
        running.set(next); // a race starts one dump more: harmless
        worker.executeBlocking(this::dump, false).onComplete(done -> {
            running.compareAndSet(next, null); // before completing: a request that sees the answer asks anew
            next.answer().handle(done);
        });
        return next.answer().future();
    }

    /** A dump under way and when it started. */
    private record Flight(Promise<String> answer, long startedMillis) {
    }

    /** The JSON document (blocking: the cluster-safety check asks the other members). */
    String dump() {
        ObjectNode root = JSON.createObjectNode();
        root.put("replica", replica).put("nowMillis", 0L).put("ready", ready.getAsBoolean());
        cluster(root.putObject("cluster"));
        ArrayNode nodes = root.putArray("nodes");
        List<NodeState> all = new ArrayList<>(state.nodeStates());
        // the time of the snapshot, not of the request: a checker compares deadlines with it, and the cluster-safety
        // check above may take seconds on a loaded machine (a reservation made meanwhile looked longer than its TTL)
        root.put("nowMillis", clock.millis());
        all.sort(Comparator.comparing(NodeState::name));
        for (NodeState node : all) {
            node(nodes.addObject(), node);
        }
        // what this replica scores on (its view, fed by every node's summary): checked apart from the owners' charges
        ArrayNode view = root.putArray("view");
        List<NodeView> viewed = new ArrayList<>(state.nodes());
        viewed.sort(Comparator.comparing(NodeView::name));
        viewed.forEach(node -> view(view.addObject(), node, state.viewVersion(node.name())));
        DraDump.write(root.putObject("dra"), dra.get(), state::ownsNode);
        return root.toString();
    }

    private void cluster(ObjectNode out) {
        HazelcastInstance member = state.member();
        boolean running = member.getLifecycleService().isRunning();
        out.put("running", running);
        if (!running) {
            return;
        }
        out.put("members", member.getCluster().getMembers().size());
        Member local = member.getCluster().getLocalMember();
        out.put("localMember", local.getAddress().getHost() + ":" + local.getAddress().getPort());
        boolean safe;
        try {
            safe = member.getPartitionService().isClusterSafe();
        } catch (RuntimeException e) {
            safe = false;
        }
        out.put("clusterSafe", safe);
    }

    private static void view(ObjectNode out, NodeView node, long version) {
        out.put("name", node.name()).put("version", version);
        ArrayNode devices = out.putArray("devices");
        node.devices().forEach(d -> devices.addObject().put("id", d.id()).put("used", d.used())
                .put("usedmem", d.usedmem()).put("usedcores", d.usedcores()));
    }

    private void node(ObjectNode out, NodeState node) {
        out.put("name", node.name()).put("owned", state.ownsNode(node.name())).put("registered", node.registered())
                .put("version", node.version());
        out.put("devices", NodeRegisterCodec.encode(node.devices()));
        ArrayNode charges = out.putArray("charges");
        node.charges().forEach((uid, charge) -> {
            ObjectNode c = charges.addObject();
            c.put("uid", uid).put("namespace", charge.podNamespace()).put("name", charge.podName());
            if (charge instanceof PodCharge.Reserved r) {
                c.put("state", "Reserved").put("deadlineMillis", r.deadlineMillis());
            } else {
                c.put("state", "Bound");
            }
            c.put("initCount", charge.allocation().initCount());
            c.put("devices", PodDevicesCodec.encode(charge.allocation().containers()));
        });
        NodeLockHolder lock = node.lock();
        if (lock == null) {
            out.putNull("lock");
        } else {
            out.putObject("lock").put("namespace", lock.namespace()).put("name", lock.name())
                    .put("sinceMillis", lock.sinceMillis());
        }
    }
}
