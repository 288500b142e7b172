package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.UsageAccounting;

import java.util.List;

import static io.vgpu.gateway.scheduling.IngestFailures.logged;

/**
 * Feeds the shared per-namespace quota map (DESIGN.md §3 "Quota") from informers, for namespace keys this
 * replica owns: ResourceQuota limits ({@code limits.<memory resource>}, {@code limits.<core resource>},
 * memory scaled by memoryFactor as HAMi does), the charge of every bound pod, and its release when the
 * pod finishes or is deleted. The filter reserves against this map before it reserves a node.
 */
public final class QuotaIngest implements ClusterEvents {

    private final ClusterState state;
    private final String memoryResource;
    private final String coreResource;
    private final int memoryFactor;

    /**
     * @param state          the shared state
     * @param memoryResource e.g. {@code nvidia.com/gpumem}
     * @param coreResource   e.g. {@code nvidia.com/gpucores}
     * @param memoryFactor   the device config's memoryFactor
     */
    public QuotaIngest(ClusterState state, String memoryResource, String coreResource, int memoryFactor) {
        this.state = state;
        this.memoryResource = memoryResource;
        this.coreResource = coreResource;
        this.memoryFactor = Math.max(1, memoryFactor);
    }

    @Override
    public void quotaChanged(QuotaObservation previous, QuotaObservation current) {
        if (state.ownsNode(current.namespace())) {
            logged("quota limits of " + current.namespace(),
                    state.setQuotaLimits(current.namespace(), limits(current)));
        }
    }

    @Override
    public void quotaDeleted(QuotaObservation lastKnown) {
        if (state.ownsNode(lastKnown.namespace())) {
            logged("quota limits of " + lastKnown.namespace(), state.setQuotaLimits(lastKnown.namespace(),
                    QuotaLimits.NONE));
        }
    }

    @Override
    public void podAdded(ObservedPod pod) {
        ingest(pod);
    }

    @Override
    public void podUpdated(ObservedPod pod) {
        ingest(pod);
    }

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        String ns = lastKnown.spec().namespace();
        if (state.ownsNode(ns) && state.quota(ns) != null) {
            logged("release quota of " + lastKnown.key(), state.releaseQuota(ns, lastKnown.spec().uid()));
        }
    }

    private void ingest(ObservedPod pod) {
        PodSpec spec = pod.spec();
        String ns = spec.namespace();
        if (!state.ownsNode(ns) || state.quota(ns) == null) {
            return;
        }
        if (pod.finished()) {
            logged("release quota of " + pod.key(), state.releaseQuota(ns, spec.uid()));
            return;
        }
        boolean bound = pod.bindStarted();
        String allocated = spec.annotation(HamiAnnotations.DEVICES_ALLOCATED);
        if (!bound || allocated == null || pod.terminating()) {
            return;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(allocated);
        if (decoded.isOk()) {
            List<DeviceGrant> grants = UsageAccounting.collapse(decoded.value(), spec.initContainers().size());
            logged("observe quota of " + pod.key(), state.observeQuota(ns, spec.uid(), UsageAccounting.totalMem(grants),
                    UsageAccounting.totalCores(grants)));
        }
    }

    private QuotaLimits limits(QuotaObservation quota) {
        Long mem = quota.limits().get(memoryResource);
        Long cores = quota.limits().get(coreResource);
        return new QuotaLimits(mem == null ? 0 : mem * memoryFactor, mem != null, cores == null ? 0 : cores,
                cores != null);
    }

}
