package io.vgpu.state.model;

/**
 * The quota rule ({@code FitQuota}, spec §8.4): a request of {@code mem} MiB and {@code cores}
 * percent fits a namespace unless an enforced memory or core entry would be exceeded. Shared by the
 * webhook's admission gate, by Fit and by the store's quota processors. Pure.
 */
public final class QuotaRule {

    private QuotaRule() {
    }

    /**
     * @param memory memory entry of the namespace, or null when none exists
     * @param cores  core entry of the namespace, or null when none exists
     * @return false iff an enforced entry would go over its limit
     */
    public static boolean fits(QuotaLimit memory, QuotaLimit cores, long mem, long coresAmount) {
        return (memory == null || memory.admits(mem)) && (cores == null || cores.admits(coresAmount));
    }
}
