package io.vgpu.gateway.core.accounting;

import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.gateway.core.quota.QuotaBook;

import java.util.Map;

/**
 * Feeds informer events into the pod cache (spec §8.1) and the quota limits (spec §8.4): pods go to the
 * {@link PodTracker} (which keeps the quota usage), ResourceQuotas set and clear the {@link QuotaBook}
 * limits. Node events are not its business. Pure; as thread-safe as the tracker and the book.
 */
public final class AccountingFeed implements ClusterEvents {

    private final PodTracker tracker;
    private final QuotaBook quotas;

    /**
     * @param tracker the pod cache
     * @param quotas  the quota book the tracker also charges
     */
    public AccountingFeed(PodTracker tracker, QuotaBook quotas) {
        this.tracker = tracker;
        this.quotas = quotas;
    }

    @Override
    public void podAdded(ObservedPod pod) {
        tracker.onAdd(observation(pod));
    }

    @Override
    public void podUpdated(ObservedPod pod) {
        tracker.onUpdate(observation(pod));
    }

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        tracker.onDelete(lastKnown.spec().uid());
    }

    /** Clears the limits the quota no longer sets, then sets the current ones. */
    @Override
    public void quotaChanged(QuotaObservation previous, QuotaObservation current) {
        if (previous != null) {
            previous.limits().keySet().stream()
                    .filter(resource -> !current.limits().containsKey(resource))
                    .forEach(resource -> quotas.clearLimit(previous.namespace(), resource));
        }
        for (Map.Entry<String, Long> limit : current.limits().entrySet()) {
            quotas.setLimit(current.namespace(), limit.getKey(), limit.getValue());
        }
    }

    /** The accounting view of an informer pod. */
    public static PodObservation observation(ObservedPod pod) {
        return new PodObservation(pod.spec().uid(), pod.spec().namespace(), pod.spec().name(), pod.phase(),
                pod.terminating(), pod.spec().annotations(), pod.spec().initContainers().size(),
                pod.initContainersDoneOk());
    }

    @Override
    public void quotaDeleted(QuotaObservation lastKnown) {
        lastKnown.limits().keySet().forEach(resource -> quotas.clearLimit(lastKnown.namespace(), resource));
    }
}
