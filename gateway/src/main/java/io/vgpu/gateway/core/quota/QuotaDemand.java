package io.vgpu.gateway.core.quota;

import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.state.model.ContainerRequest;

import java.util.Map;

/**
 * What a pod charges against its namespace quota at admission (spec §8.4, webhook rule). Init
 * containers run one after another before the app containers, which run together, so per resource:
 * <pre>
 *   demand = max( Σ over app containers of req × nums ,  max over init containers of req × nums )
 * </pre>
 * with {@code req} = {@code memreq} (MiB, memoryFactor already applied) or {@code coresreq}. A
 * percentage-only request has {@code memreq} 0 and is therefore not charged here (HAMi quirk, §15.4;
 * Fit charges the real MiB later).
 *
 * @param memory MiB
 * @param cores  SM percent
 */
public record QuotaDemand(long memory, long cores) {

    /** The demand of {@code requests} for {@code vendor}. */
    public static QuotaDemand of(PodRequests requests, String vendor) {
        long appMem = 0;
        long appCores = 0;
        for (Map<String, ContainerRequest> c : requests.appContainers()) {
            ContainerRequest r = c.get(vendor);
            if (r != null) {
                appMem += (long) r.memreq() * r.nums();
                appCores += (long) r.coresreq() * r.nums();
            }
        }
        long initMem = 0;
        long initCores = 0;
        for (Map<String, ContainerRequest> c : requests.initContainers()) {
            ContainerRequest r = c.get(vendor);
            if (r != null) {
                initMem = Math.max(initMem, (long) r.memreq() * r.nums());
                initCores = Math.max(initCores, (long) r.coresreq() * r.nums());
            }
        }
        return new QuotaDemand(Math.max(appMem, initMem), Math.max(appCores, initCores));
    }

    /** Nothing to charge: the gate is skipped. */
    public boolean isZero() {
        return memory == 0 && cores == 0;
    }

    /**
     * The webhook's quota gate: admits when nothing is charged, else asks {@code quota}.
     *
     * @param quota     the namespace quota
     * @param namespace the pod's namespace
     * @return true when the pod may be admitted as far as quota is concerned
     */
    public boolean admittedBy(NamespaceQuota quota, String namespace) {
        return isZero() || quota.fits(namespace, memory, cores);
    }
}
