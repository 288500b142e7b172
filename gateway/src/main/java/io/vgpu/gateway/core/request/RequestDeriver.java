package io.vgpu.gateway.core.request;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Derives what a container asks of NVIDIA GPUs from its resource quantities: HAMi's
 * {@code GenerateResourceRequests} (spec §4.2) and the per-pod vector {@code Resourcereqs} (§4.3).
 * Every resource is read from {@code limits} first and from {@code requests} only when the limit key
 * is absent. Pure, immutable and thread-safe.
 *
 * <p>Rules, in order:
 * <ol>
 *   <li>count: absent, not an exact integer ({@link Quantity#asInt64()}) or ≤ 0 ⇒ no request;</li>
 *   <li>memory: when present it must be an exact integer in {@code [0, ⌊2147483647 / factor⌋]}, else
 *       the <em>whole container</em> yields no request (so {@code 16Gi}, a byte count, is rejected);
 *       {@code memreq = value × factor} with {@code factor = max(memoryFactor, 1)};</li>
 *   <li>percentage: sentinel {@link ContainerRequest#NO_PERCENTAGE}; an exact integer above 100 is
 *       clamped to 100, one ≤ 0 is ignored, a non-integer is ignored;</li>
 *   <li>no percentage and {@code memreq == 0}: {@code defaultMemory} when non-zero, else 100 %;</li>
 *   <li>cores: {@code defaultCores}, replaced by the exact integer value when present (not clamped
 *       here; Fit clamps above 100).</li>
 * </ol>
 * Where Go truncates an int64 to int32 ({@code nums}, {@code coresreq}) this saturates instead.
 */
public final class RequestDeriver {

    private final NvidiaConfig config;

    /** @param config the NVIDIA device config whose names and defaults apply */
    public RequestDeriver(NvidiaConfig config) {
        this.config = config;
    }

    /** The config this deriver applies. */
    public NvidiaConfig config() {
        return config;
    }

    /**
     * {@code GenerateResourceRequests} for one container.
     *
     * @return the NVIDIA request, or empty when the container asks for no NVIDIA device
     */
    public Optional<ContainerRequest> derive(Container container) {
        OptionalLong count = exactInt(container, config.resourceCountName());
        if (count.isEmpty() || count.getAsLong() <= 0) {
            return Optional.empty();
        }
        int memreq = 0;
        if (ResourceLookup.present(container, config.resourceMemoryName())) {
            OptionalLong mem = exactInt(container, config.resourceMemoryName());
            int factor = config.effectiveMemoryFactor();
            if (mem.isEmpty() || mem.getAsLong() < 0 || mem.getAsLong() > Integer.MAX_VALUE / factor) {
                return Optional.empty(); // a byte-scale or fractional memory must not become a smaller grant
            }
            memreq = (int) mem.getAsLong() * factor;
        }
        int percentage = ContainerRequest.NO_PERCENTAGE;
        OptionalLong pct = exactInt(container, config.resourceMemoryPercentageName());
        if (pct.isPresent() && pct.getAsLong() > 0) {
            percentage = (int) Math.min(pct.getAsLong(), 100);
        }
        if (percentage == ContainerRequest.NO_PERCENTAGE && memreq == 0) {
            if (config.defaultMemory() != 0) {
                memreq = config.defaultMemory();
            } else {
                percentage = 100;
            }
        }
        int cores = config.defaultCores();
        OptionalLong coreValue = exactInt(container, config.resourceCoreName());
        if (coreValue.isPresent()) {
            cores = saturatedInt(coreValue.getAsLong());
        }
        return Optional.of(new ContainerRequest(saturatedInt(count.getAsLong()), Vendor.NVIDIA, memreq, percentage,
                cores));
    }

    /**
     * {@code Resourcereqs}: one map per container, init containers first, then app containers; each
     * map holds the vendor's request only when the container asks for one.
     */
    public PodRequests podRequests(PodSpec pod) {
        List<Map<String, ContainerRequest>> out = new ArrayList<>();
        for (Container c : pod.initContainers()) {
            out.add(vendorMap(c));
        }
        for (Container c : pod.containers()) {
            out.add(vendorMap(c));
        }
        return new PodRequests(out, pod.initContainers().size());
    }

    private Map<String, ContainerRequest> vendorMap(Container c) {
        return derive(c).map(r -> Map.of(Vendor.NVIDIA, r)).orElse(Map.of());
    }

    private static OptionalLong exactInt(Container container, String resource) {
        return ResourceLookup.find(container, resource).map(Quantity::asInt64).orElse(OptionalLong.empty());
    }

    private static int saturatedInt(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }
}
