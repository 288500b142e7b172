package io.vgpu.state.model;

/**
 * The enforced GPU limits of one namespace, from its ResourceQuota ({@code limits.<memory resource>} and
 * {@code limits.<core resource>}); memory already scaled by the device config's memoryFactor.
 *
 * @param memory    memory limit in MiB
 * @param memorySet whether a memory limit is enforced
 * @param cores     core limit in percent
 * @param coresSet  whether a core limit is enforced
 */
public record QuotaLimits(long memory, boolean memorySet, long cores, boolean coresSet) {

    /** Nothing enforced (no ResourceQuota, or it names neither resource). */
    public static final QuotaLimits NONE = new QuotaLimits(0, false, 0, false);

    /** Returns true when neither limit is enforced. */
    public boolean none() {
        return !memorySet && !coresSet;
    }
}
