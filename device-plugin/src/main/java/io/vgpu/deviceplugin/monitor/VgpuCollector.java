package io.vgpu.deviceplugin.monitor;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import io.vgpu.deviceplugin.core.monitor.ClaimMetrics;
import io.vgpu.deviceplugin.core.monitor.Collected;
import io.vgpu.deviceplugin.core.monitor.ContainerMetrics;
import io.vgpu.deviceplugin.core.monitor.HamiMetrics;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.deviceplugin.core.monitor.MigMetrics;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.hamicore.Nvml;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;

/**
 * HAMi's {@code ClusterManagerCollector}: on every scrape, computes the monitor's series afresh
 * (no cache, spec §4.3) and hands them to the Prometheus registry it is registered with:
 * <ol>
 *   <li>host GPUs from NVML (when an NVML is available);</li>
 *   <li>for each pod labelled {@code hami.io/vgpu-node=<node>} with tracked regions, for each
 *       regular container (init containers are skipped) with a region: the per-device series;</li>
 *   <li>for each such pod: {@code hami_mig_device_info} from {@code hami.io/vgpu-mig-allocations};</li>
 *   <li>for each DRA claim region: the per-device series of every container of this node's pods that
 *       uses the claim's request, with the extra labels {@code claim} and {@code request}
 *       ({@link ClaimMetrics});</li>
 * </ol>
 * every series with {@code zone="vGPU"}; plus {@code hami_build_info} without it. A failure in one
 * part (NVML, the pod lookup, one annotation) is logged and leaves the other parts intact.
 *
 * <p>Blocking: NVML calls and a wait of up to the configured timeout for the pod directory. The
 * registry's {@code scrape()} runs this on the calling thread, so scrape on a worker thread.
 * Thread-safe.
 */
public final class VgpuCollector implements MultiCollector {

    private static final Logger LOG = LoggerFactory.getLogger(VgpuCollector.class);
    private static final Map<String, String> ZONE = Map.of(HamiMetrics.ZONE_LABEL, HamiMetrics.ZONE);

    private final MonitorConfig config;
    private final Optional<Nvml> nvml;
    private final ContainerLister lister;
    private final PodDirectory pods;
    private final Clock clock;
    private final ClaimRegionLister claimRegions;
    private final PreparedClaimIndex claimIndex;
    private volatile Set<String> lastProblems = Set.of();

    /**
     * @param config the node name, legacy flag, pod lookup timeout and build info are used
     * @param nvml   NVML for host series; empty on nodes without a usable driver (no host series)
     * @param lister the tracked regions
     * @param pods   the pod lookup
     * @param clock  "now" for the last-kernel elapsed seconds
     * @param claimRegions the DRA claim regions
     * @param claimIndex   claim UID → ResourceClaim, from the DRA checkpoint
     */
    public VgpuCollector(MonitorConfig config, Optional<Nvml> nvml, ContainerLister lister, PodDirectory pods,
                         Clock clock, ClaimRegionLister claimRegions, PreparedClaimIndex claimIndex) {
        this.config = Objects.requireNonNull(config, "config");
        this.nvml = Objects.requireNonNull(nvml, "nvml");
        this.lister = Objects.requireNonNull(lister, "lister");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.claimRegions = Objects.requireNonNull(claimRegions, "claimRegions");
        this.claimIndex = Objects.requireNonNull(claimIndex, "claimIndex");
    }

    @Override
    public MetricSnapshots collect() {
        Collected hami = gather();
        report(hami.problems());
        return PrometheusSeries.concat(
                PrometheusSeries.snapshots(hami.series(), ZONE),
                PrometheusSeries.snapshots(List.of(config.buildInfo().series()), Map.of()));
    }

    /** Every HAMi series of this scrape (without {@code zone}), in HAMi's emission order, and the problems met. */
    public Collected gather() {
        Collected all = nvml.map(n -> safely("host GPUs",
                () -> new HostGpuCollector(n, config.nodeName(), config.legacyMetrics()).collect()))
                .orElse(Collected.NONE);
        Decoded<List<MonitoredPod>> assigned = lookup(pods.podsAssignedTo(config.nodeName()));
        if (!assigned.isOk()) {
            return all.plus(Collected.problem(assigned.error()));
        }
        all = all.plus(safely("containers", () -> containers(assigned.value())))
                .plus(safely("MIG", () -> mig(assigned.value())));
        return claimRegions.regions().isEmpty() ? all : all.plus(safely("DRA claims", this::claims));
    }

    /** Every DRA claim region, labelled with the pods and containers that use its request and with the claim. */
    private Collected claims() {
        Decoded<List<MonitoredPod>> onNode = lookup(pods.podsOnNode(config.nodeName()));
        List<MonitoredPod> consumers = onNode.isOk() ? onNode.value() : List.of();
        Collected out = onNode.isOk() ? Collected.NONE : Collected.problem(onNode.error());
        Map<String, ClaimRef> names = claimIndex.claims();
        long now = clock.instant().getEpochSecond();
        for (TrackedClaimRegion r : claimRegions.regions()) {
            ClaimRef claim = names.get(r.claimUid());
            if (claim == null) {
                out = out.plus(Collected.problem("DRA region " + r.file() + ": claim " + r.claimUid()
                        + " is not in the DRA checkpoint; skipped"));
                continue;
            }
            out = out.plus(ClaimMetrics.collect(claim.namespace(), claim.name(), r.request(), consumers, r.usage(), now,
                    config.legacyMetrics()));
        }
        return out;
    }

    /** A bug in one part must not fail the whole scrape (Go's collector would log and go on too). */
    private static Collected safely(String part, Supplier<Collected> step) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            LOG.error("metrics: collecting {} failed", part, e);
            return Collected.problem("collecting " + part + " failed: " + e);
        }
    }

    private Decoded<List<MonitoredPod>> lookup(CompletionStage<List<MonitoredPod>> lookup) {
        long timeout = config.podLookupTimeout().toMillis();
        try {
            return Decoded.ok(lookup.toCompletableFuture().get(timeout, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Decoded.err("failed to list pods: interrupted");
        } catch (ExecutionException e) {
            return Decoded.err("failed to list pods: " + e.getCause());
        } catch (TimeoutException e) {
            return Decoded.err("failed to list pods: no answer within " + timeout + " ms");
        }
    }

    /** {@code collectPodAndContainerInfo}. */
    private Collected containers(List<MonitoredPod> assigned) {
        Map<String, List<TrackedContainer>> byPod = new LinkedHashMap<>();
        for (TrackedContainer c : lister.containers()) {
            byPod.computeIfAbsent(c.podUid(), k -> new ArrayList<>()).add(c);
        }
        long now = clock.instant().getEpochSecond();
        Collected out = Collected.NONE;
        for (MonitoredPod pod : assigned) {
            List<TrackedContainer> regions = byPod.get(pod.uid());
            if (regions == null) {
                continue;
            }
            for (String container : pod.containers()) {
                for (TrackedContainer c : regions) {
                    if (c.containerName().equals(container)) {
                        out = out.plus(ContainerMetrics.collect(pod, container, c.usage(), now,
                                config.legacyMetrics()));
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** {@code collectPodAndContainerMigInfo}. */
    private Collected mig(List<MonitoredPod> assigned) {
        Collected out = Collected.NONE;
        for (MonitoredPod pod : assigned) {
            Decoded<List<MigAllocation>> allocations =
                    MigAllocationsCodec.decode(pod.annotations().get(HamiAnnotations.MIG_ALLOCATIONS));
            if (!allocations.isOk()) {
                out = out.plus(Collected.problem("failed to decode MIG allocations for pod " + pod.namespace() + "/"
                        + pod.name() + ": " + allocations.error()));
                continue;
            }
            out = out.plus(MigMetrics.collect(pod, allocations.value(), config.legacyMetrics()));
        }
        return out;
    }

    /** Logs problems when they change, so a steady state (a GPU without NVML memory info) is not logged every scrape. */
    private void report(List<String> problems) {
        Set<String> now = Set.copyOf(problems);
        if (!now.equals(lastProblems)) {
            problems.forEach(p -> LOG.warn("metrics: {}", p));
            lastProblems = now;
        }
    }
}
