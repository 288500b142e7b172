package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.gateway.core.KubeIdentity;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.nodelock.LockNode;
import io.vgpu.gateway.core.port.BindOutcome;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeLockPort;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodKey;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.extender.ExtenderBindingArgs;
import io.vgpu.gateway.extender.ExtenderBindingResult;
import io.vgpu.gateway.extender.ExtenderMetrics;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.LockOutcome.Contended;
import io.vgpu.state.model.LockOutcome.UnknownNode;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.Vendor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code /bind} verb (spec §11.1 with DESIGN.md §3's changes): confirm the pod's reservation in the
 * shared state, take the node lock (decided first in the node's shared state, then written as HAMi's
 * {@code hami.io/mutex.lock} annotation for the device plugin), mark {@code bind-phase=allocating}, then
 * POST the Binding. A contended lock is waited for asynchronously, bounded by
 * {@link SchedulingConfig#nodeLockWait()}, instead of failing into kube-scheduler's back-off. A pod
 * already bound to the node succeeds without charging twice, and without a second lock, bind-phase or
 * Binding, even when the informer cache has not seen the binding yet (one live read of the pod, only when
 * the shared state already holds it bound). A pod the cache has not seen at all is read live once. A
 * failure releases the locks it took; the reservation stays until it expires or the pod is filtered again
 * (as in HAMi).
 *
 * <pre>
 *   names, PodUID valid? ───────────── no ───────────────────────────► Error (nothing looked up)
 *   pod: cache, else one live read ─── missing ──────────────────────► Error (reservation dropped)
 *                                  ─── another UID ──────────────────► Error (nothing changed)
 *   node in the cache? ─────────────── no ───────────────────────────► Error (reservation dropped)
 *   confirm ────────────────────────── refused / no reservation ─────► Error
 *      │ (no entry: the recorded allocation is re-reserved, unless the pod index places the pod on another node)
 *      │ already bound, and the live pod is on this node ────────────► OK (nothing written)
 *      ▼
 *   needs the GPU lock? ── yes ──► state lock ──► API lock ──┐
 *      │ no                                                  ▼
 *      └─────────────────────────────────────────────► bind-phase ──► Binding ──► OK
 *                                  a failure after the locks were taken ──► release them, Error
 *                                  the Binding finds the pod bound elsewhere ──► also drop this node's charge
 * </pre>
 */
public final class BindService {

    private static final Logger LOG = LoggerFactory.getLogger(BindService.class);

    private final Vertx vertx;
    private final ClusterCache cache;
    private final ClusterState state;
    private final NodeLockPort nodeLock;
    private final PodWriter pods;
    private final EventSink events;
    private final RequestDeriver requests;
    private final SchedulingConfig config;
    private final Clock clock;
    private final LockReleases releases;
    private final ExtenderMetrics metrics;

    /**
     * @param vertx    for the lock-wait timers
     * @param cache    informer caches (pods, nodes)
     * @param state    the shared cluster state
     * @param nodeLock the API node lock
     * @param pods     writes bind-phase and the Binding
     * @param events   Kubernetes events
     * @param requests derives the pod's GPU requests (does it need the NVIDIA lock?)
     * @param config   timing and bounds
     * @param clock    the time source
     */
    public BindService(Vertx vertx, ClusterCache cache, ClusterState state, NodeLockPort nodeLock, PodWriter pods,
                       EventSink events, RequestDeriver requests, SchedulingConfig config, Clock clock) {
        this(vertx, cache, state, nodeLock, pods, events, requests, config, clock, LockReleases.NONE);
    }

    /**
     * As above, with what this replica's informers saw of released locks: a contended bind then clears a shared
     * lock whose annotation this replica saw go away at once, instead of waiting for the key's owner to see it
     * (the owner's watch may lag).
     */
    public BindService(Vertx vertx, ClusterCache cache, ClusterState state, NodeLockPort nodeLock, PodWriter pods,
                       EventSink events, RequestDeriver requests, SchedulingConfig config, Clock clock,
                       LockReleases releases) {
        this(vertx, cache, state, nodeLock, pods, events, requests, config, clock, releases, ExtenderMetrics.NONE);
    }

    /** As above, recording failure reasons and lock waits in {@code metrics}. */
    public BindService(Vertx vertx, ClusterCache cache, ClusterState state, NodeLockPort nodeLock, PodWriter pods,
                       EventSink events, RequestDeriver requests, SchedulingConfig config, Clock clock,
                       LockReleases releases, ExtenderMetrics metrics) {
        this.metrics = metrics;
        this.releases = releases;
        this.vertx = vertx;
        this.cache = cache;
        this.state = state;
        this.nodeLock = nodeLock;
        this.pods = pods;
        this.events = events;
        this.requests = requests;
        this.config = config;
        this.clock = clock;
    }

    /** Answers one bind request. The future never fails. */
    public Future<ExtenderBindingResult> bind(ExtenderBindingArgs args) {
        String invalid = invalidArgs(args);
        if (invalid != null) {
            // names no pod that can exist: nothing to look up, charge, lock or report an Event on
            LOG.warn("bind refused: {}", invalid);
            metrics.bindFailed(DecisionFailure.BIND_INVALID);
            return Future.succeededFuture(ExtenderBindingResult.failed(invalid));
        }
        PodKey key = new PodKey(args.podNamespace(), args.podName(), args.podUid());
        try {
            return bindSafely(args, key).recover(e -> {
                metrics.bindFailed(DecisionFailure.reasonOf(e));
                String message = FilterService.message(e);
                LOG.warn("bind {}/{} to {}: {}", args.podNamespace(), args.podName(), args.node(), message);
                events.bindingFailed(key, message);
                return Future.succeededFuture(ExtenderBindingResult.failed(message));
            });
        } catch (RuntimeException e) {
            LOG.error("bind failed unexpectedly", e);
            metrics.bindFailed(DecisionFailure.ERROR);
            return Future.succeededFuture(ExtenderBindingResult.failed(FilterService.message(e)));
        }
    }

    /**
     * Why the request names no pod that can exist, or null: the namespace, pod and node names must be valid
     * Kubernetes names and {@code PodUID} the UID the API server gave the pod (a charge is keyed by it, and the
     * Binding carries it as its precondition).
     */
    static String invalidArgs(ExtenderBindingArgs args) {
        String problem = KubeIdentity.podProblem("PodNamespace", args.podNamespace(), "PodName", args.podName(),
                "PodUID", args.podUid());
        if (problem != null) {
            return problem;
        }
        problem = KubeIdentity.subdomainProblem(args.node());
        return problem == null ? null : "Node " + KubeIdentity.quote(args.node()) + ": " + problem;
    }

    private Future<ExtenderBindingResult> bindSafely(ExtenderBindingArgs args, PodKey key) {
        return lookUpPod(key).compose(observed -> {
            if (observed.isPresent() && !observed.get().spec().uid().equals(args.podUid())) {
                // the pod kube-scheduler decided for was deleted, and one of the same name exists: not this bind's
                String message = "PodUID " + args.podUid() + " is not the UID of pod " + key + " ("
                        + observed.get().spec().uid() + "): the pod was deleted and created again; nothing bound";
                LOG.warn("bind {} to {}: {}", key, args.node(), message);
                metrics.bindFailed(DecisionFailure.BIND_UID_MISMATCH);
                return Future.succeededFuture(ExtenderBindingResult.failed(message));
            }
            if (observed.isEmpty()) {
                // spec §11.1 step 1: the lister's not-found text; no event (there is no pod to attach it to)
                metrics.bindFailed(DecisionFailure.BIND_POD_NOT_FOUND);
                return dropReservation(args.podUid())
                        .map(x -> ExtenderBindingResult.failed("pod \"" + args.podName() + "\" not found"));
            }
            if (cache.node(args.node()).isEmpty()) {
                // spec §11.1 step 2: event "failed to get node <n>", Error = the lister's not-found text
                events.bindingFailed(key, "failed to get node " + args.node());
                metrics.bindFailed(DecisionFailure.BIND_NODE_NOT_FOUND);
                return dropReservation(args.podUid())
                        .map(x -> ExtenderBindingResult.failed("node \"" + args.node() + "\" not found"));
            }
            return bindKnownPod(args, key, observed.get());
        });
    }

    /**
     * The pod from the informer cache or, when the cache has not seen it yet, one live read: kube-scheduler binds
     * right after /filter, and this replica's pod watch may lag the API server kube-scheduler read the pod from
     * (HAMi before v2.10 always read the pod live here).
     */
    private Future<Optional<ObservedPod>> lookUpPod(PodKey key) {
        Optional<ObservedPod> cached = cache.pod(key.namespace(), key.name());
        if (cached.isPresent()) {
            return Future.succeededFuture(cached);
        }
        // read whatever pod has the name: a different UID is refused by the caller, not taken for a missing pod
        return Stages.onContext(pods.readPod(new PodKey(key.namespace(), key.name(), "")))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    private Future<ExtenderBindingResult> bindKnownPod(ExtenderBindingArgs args, PodKey key, ObservedPod pod) {
        if (args.node().equals(pod.boundNode())) {
            return Future.succeededFuture(ExtenderBindingResult.OK); // a retried bind of a bound pod
        }
        if (!pod.boundNode().isEmpty()) {
            return fail(DecisionFailure.BIND_BOUND_ELSEWHERE, "pod " + key.namespace() + "/" + key.name()
                    + " is already bound to node " + pod.boundNode());
        }
        return confirm(args, pod)
                .compose(via -> via == ConfirmOutcome.Via.ALREADY_BOUND ? boundBefore(args, key)
                        : Future.succeededFuture(false))
                .compose(done -> done ? Future.succeededFuture(ExtenderBindingResult.OK)
                        : needsNodeLock(pod.spec()) ? lockAndBind(args, key) : bindPod(args, key, false));
    }

    /**
     * The shared state says the pod is bound already: a retried bind, or a retry after a bind that failed past its
     * confirmation. The informer cache may not show the binding yet, so ask the API server: bound to this node ⇒
     * done, with no second lock, bind-phase or Binding (re-taking the lock after the device plugin released it
     * would leave a lock nobody releases, and bind-phase would go back from success to allocating).
     *
     * @return true when the pod is bound to the requested node
     */
    private Future<Boolean> boundBefore(ExtenderBindingArgs args, PodKey key) {
        return Stages.onContext(pods.readPod(key))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .map(read -> read.map(ObservedPod::boundNode))
                .compose(live -> {
                    if (live.isPresent() && live.get().equals(args.node())) {
                        LOG.info("bind {}/{} to {}: already bound", key.namespace(), key.name(), args.node());
                        return Future.succeededFuture(true);
                    }
                    if (live.isPresent() && !live.get().isEmpty()) {
                        return Future.failedFuture(new DecisionFailure(DecisionFailure.BIND_BOUND_ELSEWHERE,
                                "pod " + key.namespace() + "/" + key.name() + " is already bound to node "
                                        + live.get()));
                    }
                    return Future.succeededFuture(false);
                });
    }

    /** Turns the filter reservation into a Bound charge (or re-reserves it under the capacity rule). */
    private Future<ConfirmOutcome.Via> confirm(ExtenderBindingArgs args, ObservedPod pod) {
        PodRef ref = new PodRef(args.podUid(), args.podNamespace(), args.podName());
        PodAllocation recorded = fallbackAllocation(pod.spec(), args.node());
        return confirm(args, ref, null)
                .compose(outcome -> outcome instanceof ConfirmOutcome.Missing && recorded != null
                        ? reReserveUnlessPlacedElsewhere(args, ref, recorded) : Future.succeededFuture(outcome))
                .compose(outcome -> {
                    if (outcome instanceof ConfirmOutcome.Confirmed confirmed) {
                        return Future.succeededFuture(confirmed.via());
                    }
                    return Future.failedFuture(confirmRefused(args, outcome));
                });
    }

    private Future<ConfirmOutcome> confirm(ExtenderBindingArgs args, PodRef ref, PodAllocation fallback) {
        return Stages.onContext(state.confirm(args.node(), ref, fallback, clock.millis()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The pod has no entry on the node (its reservation expired and was swept, or the shared state was rebuilt): its
     * recorded allocation is re-reserved under the capacity rule, unless the pod index places the pod on another node.
     * Then a later filter moved it (this replica's cache still shows the older annotation) and this bind comes from a
     * scheduler that missed that: re-reserving here would charge, lock and bind the pod a second time.
     */
    private Future<ConfirmOutcome> reReserveUnlessPlacedElsewhere(ExtenderBindingArgs args, PodRef ref,
                                                                  PodAllocation recorded) {
        return Stages.onContext(state.podNode(args.podUid()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .compose(placed -> placed.isPresent() && !placed.get().equals(args.node())
                        ? Future.failedFuture(new DecisionFailure(DecisionFailure.BIND_NO_RESERVATION, "cannot bind "
                                + args.podNamespace() + "/" + args.podName() + " to " + args.node()
                                + ": no reservation (the pod was placed on " + placed.get() + " since)"))
                        : confirm(args, ref, recorded));
    }

    /** Why the shared state would not confirm the pod, with HAMi-style text and the failure-reason label. */
    private static DecisionFailure confirmRefused(ExtenderBindingArgs args, ConfirmOutcome outcome) {
        String cannot = "cannot bind " + args.podNamespace() + "/" + args.podName() + " to " + args.node() + ": ";
        if (outcome instanceof ConfirmOutcome.UnknownNode) {
            return new DecisionFailure(DecisionFailure.BIND_NODE_UNREGISTERED, cannot + "node is not registered");
        }
        if (outcome instanceof ConfirmOutcome.Missing) {
            return new DecisionFailure(DecisionFailure.BIND_NO_RESERVATION, cannot + "no reservation (filter first)");
        }
        return new DecisionFailure(DecisionFailure.BIND_EXPIRED,
                cannot + "its reservation expired and the devices are taken");
    }

    /**
     * The allocation recorded on the pod, so an expired reservation can be re-made under the capacity rule; only
     * for the node the filter chose ({@code hami.io/vgpu-node}): the recorded device UUIDs belong to that node, and
     * a charge made anywhere else would never be released (pod ingest releases on the annotated node only).
     */
    private static PodAllocation fallbackAllocation(PodSpec spec, String node) {
        String allocated = spec.annotation(HamiAnnotations.DEVICES_ALLOCATED);
        if (allocated == null || !node.equals(spec.annotation(HamiAnnotations.VGPU_NODE))) {
            return null;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(allocated);
        return decoded.isOk() ? new PodAllocation(decoded.value(), spec.initContainers().size()) : null;
    }

    /** HAMi locks only when a regular (non-init) container asks for an NVIDIA device (spec §11.1 step 3). */
    private boolean needsNodeLock(PodSpec spec) {
        PodRequests r = requests.podRequests(spec);
        for (int i = r.initCount(); i < r.containers().size(); i++) {
            if (r.request(i, Vendor.NVIDIA).map(q -> q.nums() > 0).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    private Future<ExtenderBindingResult> lockAndBind(ExtenderBindingArgs args, PodKey key) {
        long deadline = clock.millis() + config.nodeLockWait().toMillis();
        long waitStart = System.nanoTime();
        // on any failure, an owner-checked unlock: a lock call that failed may still have applied (indeterminate: its
        // backup did not answer while a member died), and unlocking a lock this pod does not hold changes nothing
        return stateLock(args, deadline)
                .compose(x -> apiLock(args, key, deadline))
                .recover(e -> unlockState(args).compose(y -> Future.failedFuture(e)))
                .andThen(locked -> metrics.lockWait(locked.succeeded() ? "acquired"
                        : DecisionFailure.BIND_LOCK_TIMEOUT.equals(DecisionFailure.reasonOf(locked.cause()))
                        ? "timeout" : "failed", System.nanoTime() - waitStart))
                .compose(x -> bindPod(args, key, true));
    }

    /** The contention decision, made atomically in the node's shared state (no API round trip). */
    private Future<Void> stateLock(ExtenderBindingArgs args, long deadline) {
        return Stages.onContext(state.lockNode(args.node(), args.podNamespace(), args.podName(),
                        clock.millis(), config.nodeLockTimeout().toMillis()))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .compose(outcome -> {
                    if (outcome.holds()) {
                        return Future.succeededFuture();
                    }
                    boolean registered = !(outcome instanceof UnknownNode);
                    if (outcome instanceof Contended c
                            && (StateIngest.unannotatedPastGrace(cache, args.node(), c.holder(), clock.millis())
                            || releases.sawReleased(args.node(), c.holder()))) {
                        // its binder died between the shared lock and the annotation (nobody will release it), or
                        // its annotation is gone already and the key's owner has not seen it yet
                        return Stages.onContext(state.unlockNode(args.node(), c.holder().namespace(),
                                c.holder().name())).compose(u -> stateLock(args, deadline));
                    }
                    if (registered && clock.millis() < deadline) {
                        return vertx.timer(config.lockRetryEvery().toMillis(), TimeUnit.MILLISECONDS)
                                .compose(t -> stateLock(args, deadline));
                    }
                    return Future.failedFuture(registered ? contention(args)
                            : new DecisionFailure(DecisionFailure.BIND_NODE_UNREGISTERED, "node " + args.node()
                                    + " is not registered"));
                });
    }

    /** HAMi's {@code hami.io/mutex.lock}, which the device plugin reads to find the pod it allocates. */
    private Future<Void> apiLock(ExtenderBindingArgs args, PodKey key, long deadline) {
        return Stages.onContext(nodeLock.lock(args.node(), key.ref(), config.nodeLockTimeout()))
                .compose(outcome -> {
                    if (outcome instanceof LockOutcome.Acquired) {
                        return Future.succeededFuture();
                    }
                    if (outcome instanceof LockOutcome.Contended && clock.millis() < deadline) {
                        return vertx.timer(config.lockRetryEvery().toMillis(), TimeUnit.MILLISECONDS)
                                .compose(t -> apiLock(args, key, deadline));
                    }
                    return Future.failedFuture(outcome instanceof LockOutcome.Contended ? contention(args)
                            : new DecisionFailure(DecisionFailure.BIND_LOCK_FAILED, outcome.message()));
                });
    }

    private Future<ExtenderBindingResult> bindPod(ExtenderBindingArgs args, PodKey key, boolean locked) {
        return Stages.onContext(pods.patchBindPhase(key, "allocating", clock.millis() / 1000))
                .compose(write -> write.ok() ? Stages.onContext(pods.bind(key, args.node()))
                        : Future.failedFuture(new DecisionFailure(DecisionFailure.BIND_PHASE,
                                "failed to patch bind-phase: " + write.message())))
                .compose(outcome -> outcome.ok() ? Future.succeededFuture() : bindingRefused(args, (BindOutcome) outcome))
                .map(x -> {
                    events.bindingSucceeded(key, args.node());
                    LOG.info("bound {}/{} to {}", key.namespace(), key.name(), args.node());
                    return ExtenderBindingResult.OK;
                })
                .recover(e -> locked ? releaseLocks(args, key).compose(y -> Future.failedFuture(e))
                        : Future.failedFuture(e));
    }

    /**
     * The Binding was not made. A pod bound to another node meanwhile (this bind came from a scheduler that had not
     * seen the binding) can never be bound here: the charge this bind's confirmation made is dropped, or it would hold
     * the node's capacity as long as the pod runs elsewhere (Bound charges do not expire).
     */
    private Future<Void> bindingRefused(ExtenderBindingArgs args, BindOutcome outcome) {
        if (!(outcome instanceof BindOutcome.BoundElsewhere elsewhere)) {
            return Future.failedFuture(new DecisionFailure(DecisionFailure.BIND_BINDING, outcome.message()));
        }
        LOG.info("bind {}/{} to {}: bound to {} meanwhile, its charge on {} dropped", args.podNamespace(),
                args.podName(), args.node(), elsewhere.node(), args.node());
        DecisionFailure failure = new DecisionFailure(DecisionFailure.BIND_BOUND_ELSEWHERE, outcome.message());
        return Stages.onContext(state.release(args.node(), args.podUid())).otherwiseEmpty()
                .compose(x -> Future.failedFuture(failure));
    }

    /** Owner-checked release of both locks after this pod's own failure. */
    private Future<Void> releaseLocks(ExtenderBindingArgs args, PodKey key) {
        return Stages.onContext(nodeLock.release(args.node(), key.ref(), false)).otherwiseEmpty()
                .compose(x -> unlockState(args));
    }

    private Future<Void> unlockState(ExtenderBindingArgs args) {
        return Stages.onContext(state.unlockNode(args.node(), args.podNamespace(), args.podName()))
                .otherwiseEmpty().mapEmpty();
    }

    private Future<Void> dropReservation(String podUid) {
        if (podUid == null || podUid.isEmpty()) {
            return Future.succeededFuture();
        }
        return Stages.onContext(state.podNode(podUid))
                .compose(node -> node.isPresent()
                        ? Stages.onContext(state.release(node.get(), podUid)).mapEmpty()
                        : Future.<Void>succeededFuture())
                .otherwiseEmpty().mapEmpty();
    }

    private static Future<ExtenderBindingResult> fail(String reason, String message) {
        return Future.failedFuture(new DecisionFailure(reason, message));
    }

    /** HAMi's text with the configured timeout as Go prints it ({@code 5m0s}, {@code 15s}; not whole minutes only). */
    private DecisionFailure contention(ExtenderBindingArgs args) {
        return new DecisionFailure(DecisionFailure.BIND_LOCK_TIMEOUT,
                LockNode.contentionMessage(args.node(), config.nodeLockTimeout()));
    }
}
