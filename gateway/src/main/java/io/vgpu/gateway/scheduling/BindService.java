package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.LiveRead;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.scheduling.BindSteps.Attempt;
import io.vgpu.gateway.scheduling.BindSteps.Done;
import io.vgpu.gateway.scheduling.BindSteps.Going;
import io.vgpu.gateway.scheduling.BindSteps.Step;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.Vendor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.scheduling.BindSteps.done;
import static io.vgpu.gateway.scheduling.BindSteps.finished;
import static io.vgpu.gateway.scheduling.BindSteps.proceed;
import static io.vgpu.gateway.scheduling.BindSteps.reported;
import static io.vgpu.gateway.scheduling.BindSteps.step;
import static io.vgpu.gateway.scheduling.BindSteps.then;

/**
 * The {@code /bind} verb (spec §11.1 with DESIGN.md §3's changes), as HAMi's {@code Bind} reads: look the pod and
 * node up, confirm the reservation in the shared state, take the node lock ({@link NodeLocks}: decided first in the
 * node's shared state, then written as HAMi's {@code hami.io/mutex.lock} for the device plugin, waited for when
 * contended), mark {@code bind-phase=allocating}, then POST the Binding; one undo at the end releases the locks of a
 * bind that took them and failed. A pod already bound to the node succeeds without charging twice, and without a
 * second lock, bind-phase or Binding, even when the informer cache has not seen the binding yet. A failure keeps the
 * reservation until it expires or the pod is filtered again (as in HAMi).
 *
 * <pre>
 *   names, PodUID valid? ───────────── no ───────────────────────────► Refused (nothing looked up)
 *   look up: pod from the cache, else one live read ── gone ─────────► Refused (reservation dropped)
 *                                                   ── no answer ────► Refused (nothing changed)
 *                                                   ── another UID ──► Refused (nothing changed)
 *            node in the cache? ── no, the cache not synced ─────────► Refused (nothing changed)
 *                               ── no ───────────────────────────────► Refused (reservation dropped)
 *   (a dropped reservation is only ever a reservation: a binding stays until evidence about its pod)
 *   confirm+lock, one processor (the lock only for a pod whose regular containers ask for a GPU)
 *           ─── bound here already (cache or live read) ─────────────► Bound (nothing written)
 *           ─── bound elsewhere / refused / no reservation ──────────► Refused
 *           ─── lock contended: neither applied, tried again ── not taken within the wait ──► Refused
 *   bind-phase=allocating ─► Binding ─► Bound
 *   undo: a bind that took the locks and failed releases them; a Binding that finds the pod bound elsewhere also
 *         drops this node's charge
 * </pre>
 * The future never fails.
 */
public final class BindService {

    private static final Logger LOG = LoggerFactory.getLogger(BindService.class);

    private final ClusterCache cache;
    private final ClusterState state;
    private final NodeLocks locks;
    private final PodWriter pods;
    private final EventSink events;
    private final RequestDeriver requests;
    private final SchedulingConfig config;
    private final Clock clock;
    private final Confirmation confirmation;

    /**
     * @param cache    informer caches (pods, nodes)
     * @param state    the shared cluster state
     * @param locks    the node lock
     * @param pods     live reads, bind-phase and the Binding
     * @param events   Kubernetes events
     * @param requests derives the pod's GPU requests (does it need the NVIDIA lock?)
     * @param config   timing and bounds
     * @param clock    the time source
     */
    public BindService(ClusterCache cache, ClusterState state, NodeLocks locks, PodWriter pods, EventSink events,
                       RequestDeriver requests, SchedulingConfig config, Clock clock) {
        this.cache = cache;
        this.state = state;
        this.locks = locks;
        this.pods = pods;
        this.events = events;
        this.requests = requests;
        this.config = config;
        this.clock = clock;
        this.confirmation = new Confirmation(state, pods, config, clock);
    }

    /** Binds one pod: look up → confirm+lock → bind-phase → Binding, then the one undo. The future never fails. */
    public Future<BindOutcome> bind(BindRequest request) {
        String invalid = request.problem();
        if (invalid != null) {
            // names no pod that can exist: nothing to look up, charge, lock or report an Event on
            LOG.warn("bind refused: {}", invalid);
            return Future.succeededFuture(new BindOutcome.Refused(DecisionFailure.INVALID_REQUEST, invalid));
        }
        try {
            return step(new Attempt(request, null, false), this::lookUp)
                    .compose(then(this::confirmAndLock))
                    .compose(then(this::bindPhase))
                    .compose(then(this::binding))
                    .compose(this::undoIfFailed);
        } catch (RuntimeException e) {
            LOG.error("bind failed unexpectedly", e);
            return Future.succeededFuture(new BindOutcome.Refused(DecisionFailure.ERROR, DecisionFailure.message(e)));
        }
    }

    // ---- the steps ----

    /**
     * The pod from the informer cache or, when the cache has not seen it yet, one live read: kube-scheduler binds
     * right after /filter, and this replica's pod watch may lag the API server kube-scheduler read the pod from
     * (HAMi before v2.10 always read the pod live here). Then the node, from the cache.
     */
    private Future<Step> lookUp(Attempt attempt) {
        BindRequest request = attempt.request();
        Optional<ObservedPod> cached = cache.pod(request.namespace(), request.name());
        // a live read takes whatever pod has the name: a different UID is refused, not taken for a missing pod
        Future<LiveRead> observed = cached.isPresent() ? Future.succeededFuture(new LiveRead.Found(cached.get()))
                : Stages.onContext(pods.readLive(new PodAddress(request.namespace(), request.name(), "")))
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
        return observed.compose(read -> {
            if (read instanceof LiveRead.Unread unread) {
                return UnchangedRefusals.unread(attempt, unread.why());
            }
            if (read instanceof LiveRead.Gone) {
                // spec §11.1 step 1: the lister's not-found text; no event (there is no pod to attach it to)
                LOG.warn("bind {} to {}: the pod is gone; its reservation dropped", request.pod(), request.node());
                return dropReservation(request.uid()).compose(x -> done(attempt, DecisionFailure.POD_NOT_FOUND,
                        "pod \"" + request.name() + "\" not found", null));
            }
            ObservedPod pod = ((LiveRead.Found) read).pod();
            if (!pod.spec().uid().equals(request.uid())) {
                // the pod kube-scheduler decided for was deleted, and one of the same name exists: not this bind's
                String message = "PodUID " + request.uid() + " is not the UID of pod " + request.qualified() + " ("
                        + pod.spec().uid() + "): the pod was deleted and created again; nothing bound";
                LOG.warn("bind {} to {}: {}", request.pod(), request.node(), message);
                return done(attempt, DecisionFailure.UID_MISMATCH, message, null);
            }
            if (cache.node(request.node()).isEmpty()) {
                if (!cache.hasSynced()) {
                    return UnchangedRefusals.notSynced(attempt);
                }
                // spec §11.1 step 2: event "failed to get node <n>", Error = the lister's not-found text
                LOG.warn("bind {} to {}: the node is not in the informer cache; the pod's reservation dropped",
                        request.pod(), request.node());
                return dropReservation(request.uid()).compose(x -> done(attempt, DecisionFailure.NODE_NOT_FOUND,
                        "node \"" + request.node() + "\" not found", "failed to get node " + request.node()));
            }
            return proceed(attempt.with(pod));
        });
    }

    /**
     * Bound already (to this node: done; elsewhere: refused), else the reservation becomes a Bound charge and, for a
     * pod that needs the node lock, the lock is taken in the same processor ({@link ClusterState#confirmAndLock}: one
     * hop; a contended lock applies neither and the bind waits and tries both again, {@link NodeLocks}).
     */
    private Future<Step> confirmAndLock(Attempt attempt) {
        BindRequest request = attempt.request();
        String boundNode = attempt.pod().boundNode();
        if (request.node().equals(boundNode)) {
            return finished(attempt, BindOutcome.BOUND, null); // a retried bind of a bound pod
        }
        if (!boundNode.isEmpty()) {
            return reported(attempt, DecisionFailure.BOUND_ELSEWHERE, "pod " + request.qualified()
                    + " is already bound to node " + boundNode);
        }
        if (!needsNodeLock(attempt.pod().spec())) {
            return confirmation.confirm(request, attempt.pod()).compose(result -> confirmed(attempt, result));
        }
        Confirmation.ConfirmingLock confirming = confirmation.confirmingLock(request, attempt.pod());
        return locks.acquire(request.node(), request.pod().namespacedName(), confirming).compose(taken -> {
            if (taken instanceof LockAcquisition.Refused refused) {
                return reported(attempt, refused.cause(), refused.message());
            }
            if (taken instanceof LockAcquisition.Held) {
                return proceed(attempt.holdingLocks());
            }
            // declined: the confirmation decided without the lock; a pod the shared state shows bound that the API
            // server shows unbound (a bind that failed past its confirmation) is locked on its own and bound again
            Confirmation.Result result = confirming.result();
            return result instanceof Confirmation.Proceed ? lock(attempt) : confirmed(attempt, result);
        });
    }

    private Future<Step> confirmed(Attempt attempt, Confirmation.Result result) {
        if (result instanceof Confirmation.Refused refused) {
            return reported(attempt, refused.cause(), refused.message());
        }
        return result instanceof Confirmation.Done ? finished(attempt, BindOutcome.BOUND, null) : proceed(attempt);
    }

    /** The node lock alone, for a pod whose charge the shared state holds as bound already. */
    private Future<Step> lock(Attempt attempt) {
        BindRequest request = attempt.request();
        return locks.acquire(request.node(), request.pod().namespacedName()).compose(taken ->
                taken instanceof LockAcquisition.Refused refused
                        ? reported(attempt, refused.cause(), refused.message()) : proceed(attempt.holdingLocks()));
    }

    private Future<Step> bindPhase(Attempt attempt) {
        return Stages.onContext(pods.patchBindPhase(attempt.request().pod(), "allocating", clock.millis() / 1000))
                .compose(write -> write.ok() ? proceed(attempt) : reported(attempt, DecisionFailure.BIND_PHASE_FAILED,
                        "failed to patch bind-phase: " + write.message()));
    }

    /**
     * The Binding. A pod bound to another node meanwhile (this bind came from a scheduler that had not seen the
     * binding) can never be bound here: the charge this bind's confirmation made is dropped, or it would hold the
     * node's capacity as long as the pod runs elsewhere (Bound charges do not expire).
     */
    private Future<Step> binding(Attempt attempt) {
        BindRequest request = attempt.request();
        return Stages.onContext(pods.bind(request.pod(), request.node())).compose(outcome -> {
            if (outcome.ok()) {
                events.bindingSucceeded(request.pod(), request.node());
                LOG.info("bound {} to {}", request.pod(), request.node());
                return finished(attempt, BindOutcome.BOUND, null);
            }
            if (!(outcome instanceof BindingOutcome.BoundElsewhere elsewhere)) {
                return reported(attempt, DecisionFailure.BINDING_FAILED, outcome.message());
            }
            LOG.info("bind {} to {}: bound to {} meanwhile, its charge on {} dropped", request.pod(), request.node(),
                    elsewhere.node(), request.node());
            return Stages.onContext(state.release(request.node(), request.uid())).otherwiseEmpty()
                    .compose(x -> reported(attempt, DecisionFailure.BOUND_ELSEWHERE, outcome.message()));
        });
    }

    /** The one undo: a bind that took the locks and did not bind releases them (owner-checked); then its event. */
    private Future<BindOutcome> undoIfFailed(Step step) {
        Done done = step instanceof Done d ? d : new Done(((Going) step).attempt(),
                new BindOutcome.Refused(DecisionFailure.ERROR, "bind ended without an outcome"), null);
        Future<Void> undone = done.outcome() instanceof BindOutcome.Refused && done.attempt().locked()
                ? locks.release(done.attempt().request().node(), done.attempt().request().pod().namespacedName())
                : Future.succeededFuture();
        return undone.map(x -> {
            if (done.event() != null) {
                events.bindingFailed(done.attempt().request().pod(), done.event());
            }
            return done.outcome();
        });
    }

    // ---- helpers ----

    private boolean needsNodeLock(PodSpec spec) {
        PodRequests r = requests.podRequests(spec);
        for (int i = r.initCount(); i < r.containers().size(); i++) {
            if (r.request(i, Vendor.NVIDIA).map(q -> q.nums() > 0).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The pod's reservation, wherever the pod index places it, is released (the request's UID is valid); a binding
     * there is kept: a pod "not found" may only have been unreadable, and its delete releases its binding anyway.
     */
    private Future<Void> dropReservation(String podUid) {
        return Stages.onContext(state.podNode(podUid))
                .compose(node -> node.isPresent()
                        ? Stages.onContext(state.releaseReservation(node.get(), podUid)).mapEmpty()
                        : Future.<Void>succeededFuture())
                .otherwiseEmpty().mapEmpty();
    }
}
