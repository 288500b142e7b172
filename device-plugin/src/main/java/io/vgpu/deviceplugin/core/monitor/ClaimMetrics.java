package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The per-container series of a DRA share's HAMi-core region (one region per claim request:
 * {@code H/vgpu/claims/<claim UID>/<request>.cache}): HAMi's container families
 * ({@link ContainerMetrics}) with the pod and the container that use the request, plus the labels
 * {@code claim} (the ResourceClaim's name) and {@code request}.
 *
 * <p>The region belongs to the request, not to a container: every process of every container using
 * the request (several pods may share a claim) counts against one limit and writes one region, so
 * each consumer's series carry the same, shared values. A region whose consumers are not known
 * (the pod left the cache, or has not reached it) is reported once with empty {@code pod} and
 * {@code container}. Pure.
 */
public final class ClaimMetrics {

    /** Label naming the ResourceClaim. */
    public static final String CLAIM_LABEL = "claim";
    /** Label naming the claim's request. */
    public static final String REQUEST_LABEL = "request";

    private ClaimMetrics() {
    }

    /**
     * @param namespace the claim's namespace
     * @param claim     the claim's name
     * @param request   the request (main name)
     * @param podsOnNode the pods of this node
     * @param usage     the request's region
     */
    public static Collected collect(String namespace, String claim, String request, List<MonitoredPod> podsOnNode,
                                    UsageInfo usage, long nowSeconds, boolean legacy) {
        Collected out = Collected.NONE;
        boolean any = false;
        for (MonitoredPod pod : podsOnNode) {
            if (!pod.namespace().equals(namespace)) {
                continue;
            }
            for (String container : pod.containersUsing(claim, request)) {
                out = out.plus(ContainerMetrics.collect(pod, container, usage, nowSeconds, legacy));
                any = true;
            }
        }
        if (!any) {
            MonitoredPod unknown = new MonitoredPod("", namespace, "", "", Map.of(), Map.of(), List.of(), List.of());
            out = ContainerMetrics.collect(unknown, "", usage, nowSeconds, legacy);
        }
        return labelled(out, claim, request);
    }

    private static Collected labelled(Collected collected, String claim, String request) {
        List<MetricSeries> series = new ArrayList<>();
        for (MetricSeries s : collected.series()) {
            MetricDescriptor d = s.descriptor();
            List<String> names = new ArrayList<>(d.labelNames());
            names.add(CLAIM_LABEL);
            names.add(REQUEST_LABEL);
            List<String> values = new ArrayList<>(s.labelValues());
            values.add(claim);
            values.add(request);
            series.add(new MetricSeries(new MetricDescriptor(d.name(), d.help(), names), values, s.value()));
        }
        return new Collected(series, collected.problems());
    }
}
