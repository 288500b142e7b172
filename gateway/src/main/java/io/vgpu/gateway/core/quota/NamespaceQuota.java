package io.vgpu.gateway.core.quota;

/**
 * The namespace quota check {@code FitQuota(ns, mem, cores)} (spec §8.4) as the webhook's admission
 * gate sees it. Implemented by {@link QuotaBook}. Must be thread-safe and must not block.
 */
@FunctionalInterface
public interface NamespaceQuota {

    /** A quota that admits everything (no quota configured). */
    NamespaceQuota UNLIMITED = (namespace, memory, cores) -> true;

    /**
     * @param namespace the pod's namespace
     * @param memory    MiB the pod would add (already scaled by memoryFactor)
     * @param cores     SM percent the pod would add
     * @return false iff an enforced memory or core limit of the namespace would be exceeded
     */
    boolean fits(String namespace, long memory, long cores);
}
