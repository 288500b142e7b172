package io.vgpu.deviceplugin.monitor;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.vgpu.deviceplugin.core.monitor.FeedbackRule;
import io.vgpu.deviceplugin.core.monitor.FeedbackRule.ObserveResult;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import io.vgpu.deviceplugin.core.monitor.UsageInfo;

/**
 * One tick of HAMi's {@code watchAndFeedback} (spec §4.5): look up the pods on this node, scan the
 * container directories ({@link ContainerLister#update}) and the DRA claim directories
 * ({@link ClaimRegionLister#update}), then run {@link FeedbackRule#observe} over every tracked region
 * of both kinds, so task priorities work across device-plugin and DRA shares of one GPU alike. A failed lookup or scan skips {@code Observe} for that tick, as in
 * HAMi. While the MIG apply lock file exists (MIG reconfiguration) the tick does nothing.
 *
 * <p>Blocking (file I/O, mmap, a bounded wait for the pod directory): call {@link #tick} on a
 * worker thread. Ticks never overlap: a tick that finds another still running returns
 * {@link TickReport.Outcome#BUSY} at once.
 */
public final class FeedbackLoop {

    private static final Logger LOG = LoggerFactory.getLogger(FeedbackLoop.class);

    private final MonitorConfig config;
    private final ContainerLister lister;
    private final PodDirectory pods;
    private final ClaimRegionLister claimRegions;
    private final ReentrantLock running = new ReentrantLock();
    /** The last failure logged, so a lasting condition (no containers directory yet) is logged once. */
    private String lastFailure = "";

    /**
     * @param config node name, pod lookup timeout and MIG apply lock path are used
     * @param lister the region tracker to update
     * @param pods   the pod lookup
     * @param claimRegions the DRA claim regions (scanned and observed with the containers' regions)
     */
    public FeedbackLoop(MonitorConfig config, ContainerLister lister, PodDirectory pods, ClaimRegionLister claimRegions) {
        this.config = Objects.requireNonNull(config, "config");
        this.lister = Objects.requireNonNull(lister, "lister");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.claimRegions = Objects.requireNonNull(claimRegions, "claimRegions");
    }

    /** Runs one tick; never throws for expected failures (they are in the report). */
    public TickReport tick() {
        if (!running.tryLock()) {
            return TickReport.of(TickReport.Outcome.BUSY, "a previous tick is still running");
        }
        try {
            if (Files.exists(config.migApplyLock())) {
                return TickReport.of(TickReport.Outcome.PAUSED, "MIG apply lock " + config.migApplyLock() + " present");
            }
            Set<String> uids;
            try {
                uids = podUidsOnNode();
            } catch (ExecutionException | TimeoutException e) {
                return failed("failed to list pods: " + (e instanceof ExecutionException ? e.getCause() : e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failed("failed to list pods: interrupted");
            }
            ScanReport scan = lister.update(uids);
            if (!scan.ok()) {
                return failed("failed to update container list: " + scan.error());
            }
            claimRegions.update();
            List<UsageInfo> regions = new ArrayList<>();
            lister.containers().forEach(c -> regions.add(c.usage()));
            claimRegions.regions().forEach(r -> regions.add(r.usage()));
            ObserveResult observed = FeedbackRule.observe(regions);
            if (observed.writes() > 0 && LOG.isDebugEnabled()) {
                LOG.debug("feedback: census {} -> {} blocked, {} released, {} throttled, {} unthrottled",
                        observed.census(), observed.blocked(), observed.released(), observed.throttled(),
                        observed.unthrottled());
            }
            lastFailure = "";
            return new TickReport(TickReport.Outcome.OBSERVED, "", scan, observed);
        } finally {
            running.unlock();
        }
    }

    private Set<String> podUidsOnNode() throws InterruptedException, ExecutionException, TimeoutException {
        List<MonitoredPod> onNode = pods.podsOnNode(config.nodeName()).toCompletableFuture()
                .get(config.podLookupTimeout().toMillis(), TimeUnit.MILLISECONDS);
        Set<String> uids = new HashSet<>();
        onNode.forEach(p -> uids.add(p.uid()));
        return uids;
    }

    private TickReport failed(String message) {
        if (!message.equals(lastFailure)) {
            LOG.error("feedback tick skipped: {}", message);
        }
        lastFailure = message;
        return TickReport.of(TickReport.Outcome.FAILED, message);
    }

    /**
     * What a tick did.
     *
     * @param outcome  how it ended
     * @param message  why it did not observe; empty when it did
     * @param scan     the directory scan, null unless the scan ran
     * @param observed the feedback result, null unless observed
     */
    public record TickReport(Outcome outcome, String message, ScanReport scan, ObserveResult observed) {

        /** How a tick ended. */
        public enum Outcome {
            /** Scanned and ran {@code Observe}. */
            OBSERVED,
            /** MIG reconfiguration in progress; nothing done. */
            PAUSED,
            /** The pod lookup or the scan failed; {@code Observe} skipped. */
            FAILED,
            /** Another tick was running; nothing done. */
            BUSY
        }

        static TickReport of(Outcome outcome, String message) {
            return new TickReport(outcome, message, null, null);
        }
    }
}
