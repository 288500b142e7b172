package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.vgpu.gateway.core.nodelock.LockNode;
import io.vgpu.gateway.core.nodelock.LockRetry;
import io.vgpu.gateway.core.nodelock.LockStep;
import io.vgpu.gateway.core.nodelock.NodeRead;
import io.vgpu.gateway.core.nodelock.OwnerLookup;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.nodelock.ReleaseNodeLock;
import io.vgpu.gateway.core.nodelock.ReleaseStep;
import io.vgpu.gateway.core.nodelock.SetNodeLock;
import io.vgpu.gateway.core.nodelock.SetStep;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeLockPort;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLockCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@link NodeLockPort} over the Kubernetes API: runs the pure decisions of {@link LockNode},
 * {@link SetNodeLock} and {@link ReleaseNodeLock} against live {@code GET node} reads, writes with
 * resourceVersion-guarded merge patches (a concurrent writer gets 409 and is retried per
 * {@link LockRetry#HAMI}), and looks the owner pod up for dangling locks. Calls for one node are serialised
 * in-process by a {@link KeyedSequencer}; nothing blocks a thread.
 *
 * <p>Deliberate refinement of HAMi: a stale (expired or dangling) lock is removed only if the node still
 * carries exactly the value that was judged stale; HAMi re-reads and removes whatever it finds, which can
 * remove a lock another replica has just taken.
 */
public final class KubeNodeLock implements NodeLockPort {

    private static final Logger LOG = LoggerFactory.getLogger(KubeNodeLock.class);

    private final KubeApi api;
    private final Clock clock;
    private final ZoneId zone;
    private final LockRetry retry;
    private final KeyedSequencer perNode = new KeyedSequencer();

    /**
     * @param api   the gateway's API client
     * @param clock time source for lock values and expiry
     * @param zone  the zone lock times are written in (HAMi writes {@code time.Local})
     */
    public KubeNodeLock(KubeApi api, Clock clock, ZoneId zone) {
        this(api, clock, zone, LockRetry.HAMI);
    }

    /** With another retry schedule (tests shorten it). */
    KubeNodeLock(KubeApi api, Clock clock, ZoneId zone, LockRetry retry) {
        this.api = api;
        this.clock = clock;
        this.zone = zone;
        this.retry = retry;
    }

    @Override
    public CompletionStage<LockOutcome> lock(String node, NamespacedName pod, Duration timeout) {
        return perNode.run(node, () -> readNode(node)
                .thenCompose(read -> follow(node, pod, read,
                        LockNode.decide(read.read(), node, pod, timeout, clock.instant()))));
    }

    @Override
    public CompletionStage<ReleaseOutcome> release(String node, NamespacedName pod, boolean skipOwnerCheck) {
        return perNode.run(node, () -> readNode(node).thenCompose(read -> {
            ReleaseStep step = ReleaseNodeLock.firstLook(read.read(), pod, skipOwnerCheck);
            if (step instanceof ReleaseStep.Failed failed) {
                return done(new ReleaseOutcome.Failed(failed.message()));
            }
            if (step instanceof ReleaseStep.Leave) {
                return done(new ReleaseOutcome.Released(false));
            }
            return removeAttempt(node, pod, skipOwnerCheck, ((ReleaseStep.Remove) step).expectedLock(), 1);
        }));
    }

    // ---- LockNode ----

    private CompletionStage<LockOutcome> follow(String node, NamespacedName pod, NodeSnapshot read, LockStep step) {
        if (step instanceof LockStep.AlreadyHeld) {
            return done(new LockOutcome.Acquired(LockOutcome.How.ALREADY_HELD, read.lock()));
        }
        if (step instanceof LockStep.Contended contended) {
            return done(new LockOutcome.Contended(contended.message()));
        }
        if (step instanceof LockStep.Failed failed) {
            return done(new LockOutcome.Failed(failed.message()));
        }
        if (step instanceof LockStep.LookUpOwner lookUp) {
            return lookUpOwner(lookUp.owner()).thenCompose(found -> follow(node, pod, read, lookUp.resolve(found)));
        }
        LockStep.Acquire acquire = (LockStep.Acquire) step;
        LockOutcome.How how = LockOutcome.How.of(acquire.reason());
        if (acquire.staleLock() == null) {
            return setNodeLock(node, pod, how);
        }
        LOG.info("node {}: taking over {} lock {} for {}/{}", node, how, acquire.staleLock(), pod.namespace(), pod.name());
        return removeAttempt(node, pod, true, acquire.staleLock(), 1).thenCompose(released -> released.ok()
                ? setNodeLock(node, pod, how)
                : done(new LockOutcome.Failed(((ReleaseOutcome.Failed) released).message())));
    }

    private CompletionStage<OwnerLookup> lookUpOwner(NamespacedName owner) {
        return api.get(KubePaths.pod(owner.namespace(), owner.name())).thenApply(r -> {
            if (r.ok()) {
                return new OwnerLookup.Exists();
            }
            return r.notFound() ? new OwnerLookup.NotFound() : new OwnerLookup.Failed(r.error());
        });
    }

    // ---- SetNodeLock ----

    private CompletionStage<LockOutcome> setNodeLock(String node, NamespacedName pod, LockOutcome.How how) {
        return readNode(node).thenCompose(read -> {
            SetStep step = SetNodeLock.precheck(read.read(), node);
            if (step instanceof SetStep.Failed failed) {
                return done(new LockOutcome.Failed(failed.message()));
            }
            if (step instanceof SetStep.Contended contended) {
                return done(new LockOutcome.Contended(contended.message()));
            }
            return setAttempt(node, pod, how, 1);
        });
    }

    private CompletionStage<LockOutcome> setAttempt(String node, NamespacedName pod, LockOutcome.How how, int attempt) {
        return readNode(node).thenCompose(read -> {
            SetStep step = SetNodeLock.attempt(read.read(), node, pod, clock.instant(), zone);
            if (step instanceof SetStep.Done) {
                return done(new LockOutcome.Acquired(how, read.lock()));
            }
            if (step instanceof SetStep.Contended contended) {
                return done(new LockOutcome.Contended(SetNodeLock.exhausted(node, contended.message())));
            }
            if (step instanceof SetStep.Retry again) {
                return nextSetAttempt(node, pod, how, attempt, again.error());
            }
            if (step instanceof SetStep.Failed failed) {
                return done(new LockOutcome.Failed(failed.message()));
            }
            String value = ((SetStep.Patch) step).value();
            return api.mergePatch(KubePaths.node(node), NodeLockCodec.setPatch(value, read.resourceVersion()))
                    .thenCompose(written -> written.ok()
                            ? done(new LockOutcome.Acquired(how, value))
                            : nextSetAttempt(node, pod, how, attempt, written.error()));
        });
    }

    private CompletionStage<LockOutcome> nextSetAttempt(String node, NamespacedName pod, LockOutcome.How how, int attempt,
                                                        String cause) {
        if (attempt >= retry.steps()) {
            return done(new LockOutcome.Failed(SetNodeLock.exhausted(node, cause)));
        }
        LOG.debug("node {}: lock attempt {} failed: {}", node, attempt, cause);
        return api.delay(retry.delayAfter(attempt, ThreadLocalRandom.current().nextDouble()))
                .thenCompose(ignored -> setAttempt(node, pod, how, attempt + 1));
    }

    // ---- ReleaseNodeLock ----

    private CompletionStage<ReleaseOutcome> removeAttempt(String node, NamespacedName pod, boolean skipOwnerCheck,
                                                          String expected, int attempt) {
        return readNode(node).thenCompose(read -> {
            ReleaseStep step = ReleaseNodeLock.recheck(read.read(), expected, pod, skipOwnerCheck);
            if (step instanceof ReleaseStep.Leave) {
                return done(new ReleaseOutcome.Released(false));
            }
            if (step instanceof ReleaseStep.Retry again) {
                return nextRemoveAttempt(node, pod, skipOwnerCheck, expected, attempt, again.error());
            }
            if (step instanceof ReleaseStep.Failed failed) {
                return done(new ReleaseOutcome.Failed(failed.message()));
            }
            return api.mergePatch(KubePaths.node(node), NodeLockCodec.removePatch(read.resourceVersion()))
                    .thenCompose(written -> written.ok()
                            ? done(new ReleaseOutcome.Released(true))
                            : nextRemoveAttempt(node, pod, skipOwnerCheck, expected, attempt, written.error()));
        });
    }

    private CompletionStage<ReleaseOutcome> nextRemoveAttempt(String node, NamespacedName pod, boolean skipOwnerCheck,
                                                              String expected, int attempt, String cause) {
        if (attempt >= retry.steps()) {
            return done(new ReleaseOutcome.Failed(ReleaseNodeLock.exhausted(node, cause)));
        }
        return api.delay(retry.delayAfter(attempt, ThreadLocalRandom.current().nextDouble()))
                .thenCompose(ignored -> removeAttempt(node, pod, skipOwnerCheck, expected, attempt + 1));
    }

    // ---- reads ----

    /** A live GET of the node: the lock as the decisions see it, plus the resourceVersion to guard writes. */
    private CompletionStage<NodeSnapshot> readNode(String node) {
        return api.get(KubePaths.node(node)).thenApply(r -> {
            if (!r.ok()) {
                return new NodeSnapshot(new NodeRead.Failed(r.error()), "");
            }
            Node parsed = api.parse(r.body(), Node.class);
            if (parsed == null || parsed.getMetadata() == null) {
                return new NodeSnapshot(new NodeRead.Failed("node " + node + ": unreadable response"), "");
            }
            Map<String, String> annotations = parsed.getMetadata().getAnnotations();
            String lock = annotations == null ? null : annotations.get(HamiAnnotations.NODE_LOCK);
            String rv = parsed.getMetadata().getResourceVersion();
            return new NodeSnapshot(NodeRead.locked(lock), rv == null ? "" : rv);
        });
    }

    private static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /**
     * One live read of a node.
     *
     * @param read            what the decisions consume
     * @param resourceVersion the version to guard the next write with ("" when the read failed)
     */
    private record NodeSnapshot(NodeRead read, String resourceVersion) {

        String lock() {
            return read instanceof NodeRead.Found found ? found.lock() : null;
        }
    }
}
