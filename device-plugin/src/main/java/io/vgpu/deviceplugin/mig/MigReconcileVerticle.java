package io.vgpu.deviceplugin.mig;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.allocate.MigReservations;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Dynamic MIG's reclaiming loop (HAMi's 5 s MIG reconciler, spec §5.2): read the manager's epoch, list
 * the pods on the node, and destroy the managed instances no live pod reserves. Conservative: a failed
 * list or any unreadable reservation skips the round (nothing is inferred from a partial view).
 *
 * <pre>
 *  tick ─► epoch ─► list pods ─► reserved keys ─ unreadable ─► skip ─► wait interval ─► tick
 *                        └ fails ─► skip             └ ok ─► manager.reconcile ─┘
 * </pre>
 */
public final class MigReconcileVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(MigReconcileVerticle.class);

    private final MigManager manager;
    private final ClusterAccess cluster;
    private final String node;
    private final Duration interval;
    private long timer = -1;
    private boolean stopped;

    /** @param interval the period between rounds (HAMi: 5 s) */
    public MigReconcileVerticle(MigManager manager, ClusterAccess cluster, String node, Duration interval) {
        this.manager = Objects.requireNonNull(manager, "manager");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.node = Objects.requireNonNull(node, "node");
        this.interval = Objects.requireNonNull(interval, "interval");
    }

    @Override
    public Future<?> start() {
        schedule();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        vertx.cancelTimer(timer);
        return Future.succeededFuture();
    }

    private void tick() {
        long epoch = manager.epoch();
        Future.fromCompletionStage(cluster.podsOnNode(node), context)
                .compose(pods -> {
                    Outcome<Set<MigKey>> reserved = MigReservations.reservedBy(pods);
                    if (!reserved.isOk()) {
                        LOG.warn("MIG reconcile skipped: {}", reserved.error());
                        return Future.succeededFuture(List.<MigKey>of());
                    }
                    return Future.fromCompletionStage(manager.reconcile(reserved.value(), epoch), context);
                })
                .onComplete(done -> {
                    if (done.failed()) {
                        LOG.warn("MIG reconcile skipped: {}", done.cause().getMessage());
                    } else if (!done.result().isEmpty()) {
                        LOG.info("MIG reconcile reclaimed {}", done.result());
                    }
                    schedule();
                });
    }

    private void schedule() {
        if (!stopped) {
            timer = vertx.setTimer(Math.max(1, interval.toMillis()), id -> tick());
        }
    }
}
