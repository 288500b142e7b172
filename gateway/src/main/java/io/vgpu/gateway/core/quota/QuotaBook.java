package io.vgpu.gateway.core.quota;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.QuotaLimit;
import io.vgpu.state.model.QuotaRule;
import io.vgpu.state.model.UsageAccounting;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-namespace GPU quota (spec §8.4): limits from ResourceQuota {@code spec.hard["limits.<name>"]}
 * for the configured memory and core resource names, usage from the tracked pods. Thread-safe; every
 * update of one namespace and resource is atomic. Pure (no I/O).
 */
public final class QuotaBook implements QuotaGate, NamespaceQuota {

    private final String memoryResource;
    private final String coreResource;
    private final int memoryFactor;
    private final Map<Key, QuotaLimit> entries = new ConcurrentHashMap<>();

    /**
     * @param memoryResource memory resource name, e.g. {@code nvidia.com/gpumem}
     * @param coreResource   core resource name, e.g. {@code nvidia.com/gpucores}
     * @param memoryFactor   the device config's memoryFactor; memory limits are multiplied by it when > 1
     */
    public QuotaBook(String memoryResource, String coreResource, int memoryFactor) {
        this.memoryResource = memoryResource;
        this.coreResource = coreResource;
        this.memoryFactor = memoryFactor;
    }

    /** The memory resource name this book enforces. */
    public String memoryResource() {
        return memoryResource;
    }

    /** The core resource name this book enforces. */
    public String coreResource() {
        return coreResource;
    }

    /**
     * Sets the limit of {@code resource} in {@code namespace} (from a ResourceQuota add/update).
     * Memory limits are scaled by memoryFactor. Unknown resources are ignored.
     */
    public void setLimit(String namespace, String resource, long limit) {
        if (!isTracked(resource)) {
            return;
        }
        long scaled = resource.equals(memoryResource) && memoryFactor > 1 ? limit * memoryFactor : limit;
        entries.compute(new Key(namespace, resource), (k, old) ->
                new QuotaLimit(old == null ? 0 : old.used(), scaled, true));
    }

    /** Clears the limit (ResourceQuota deleted): usage is kept, nothing is enforced. */
    public void clearLimit(String namespace, String resource) {
        entries.computeIfPresent(new Key(namespace, resource), (k, old) -> new QuotaLimit(old.used(), 0, false));
    }

    /** Adds (or with negative values removes) usage; clamped at 0. */
    public void addUsage(String namespace, long mem, long cores) {
        bump(namespace, memoryResource, mem);
        bump(namespace, coreResource, cores);
    }

    /** Adds a pod's collapsed grants to its namespace's usage. */
    public void addUsage(String namespace, List<DeviceGrant> grants) {
        addUsage(namespace, UsageAccounting.totalMem(grants), UsageAccounting.totalCores(grants));
    }

    /** Removes a pod's collapsed grants from its namespace's usage. */
    public void removeUsage(String namespace, List<DeviceGrant> grants) {
        addUsage(namespace, -UsageAccounting.totalMem(grants), -UsageAccounting.totalCores(grants));
    }

    /** The entry for {@code resource} in {@code namespace}, or null when there is none. */
    public QuotaLimit entry(String namespace, String resource) {
        return entries.get(new Key(namespace, resource));
    }

    /**
     * Every entry, for metrics: namespace → resource name → entry (a snapshot copy).
     */
    public Map<String, Map<String, QuotaLimit>> entries() {
        Map<String, Map<String, QuotaLimit>> out = new TreeMap<>();
        entries.forEach((k, v) -> out.computeIfAbsent(k.namespace(), n -> new TreeMap<>()).put(k.resource(), v));
        return out;
    }

    /** {@code FitQuota(ns, mem, cores)}: false iff an enforced entry would go over its limit. */
    @Override
    public boolean fits(String namespace, long mem, long cores) {
        return QuotaRule.fits(entry(namespace, memoryResource), entry(namespace, coreResource), mem, cores);
    }

    @Override
    public boolean admits(String namespace, List<List<ContainerDevice>> containers, int initCount) {
        if (!limited(namespace)) {
            return true;
        }
        List<DeviceGrant> grants = UsageAccounting.collapse(containers, initCount);
        return fits(namespace, UsageAccounting.totalMem(grants), UsageAccounting.totalCores(grants));
    }

    /** False when {@code namespace} enforces no memory or core limit: then every allocation fits. */
    @Override
    public boolean enforces(String namespace) {
        return limited(namespace);
    }

    /** Whether {@code namespace} enforces a memory or core limit (else everything fits). */
    private boolean limited(String namespace) {
        QuotaLimit memory = entry(namespace, memoryResource);
        QuotaLimit cores = entry(namespace, coreResource);
        return memory != null && memory.limitSet() || cores != null && cores.limitSet();
    }

    private boolean isTracked(String resource) {
        return resource.equals(memoryResource) || resource.equals(coreResource);
    }

    private void bump(String namespace, String resource, long delta) {
        if (delta != 0) {
            entries.compute(new Key(namespace, resource), (k, old) ->
                    (old == null ? QuotaLimit.UNLIMITED : old).plus(delta));
        }
    }

    private record Key(String namespace, String resource) {
    }
}
