package io.vgpu.deviceplugin.dra.prepare;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the driver reads of a ResourceClaim from the API server (spec/dra-spec.md §1.4): its
 * identity, its allocation ({@code status.allocation}, absent until the scheduler allocated it) and
 * the pods it is reserved for. Quantities are already numbers (bytes, percent, slots).
 *
 * @param ref         namespace, name and UID of the object as the API server returned it
 * @param allocation  {@code status.allocation.devices}; empty when not allocated
 * @param reservedFor {@code status.reservedFor} (pods using the claim)
 */
public record ClaimObject(ClaimRef ref, Optional<Allocation> allocation, List<Consumer> reservedFor) {

    /** Copies the list; null allocation means none. */
    public ClaimObject {
        Objects.requireNonNull(ref, "ref");
        allocation = allocation == null ? Optional.empty() : allocation;
        reservedFor = List.copyOf(reservedFor);
    }

    /**
     * {@code status.allocation.devices}.
     *
     * @param results every allocated device, of every driver, in allocation order
     * @param configs the configs copied at allocation: class ones first, then the claim's, in order
     */
    public record Allocation(List<Result> results, List<Config> configs) {
        /** Copies the lists. */
        public Allocation {
            results = List.copyOf(results);
            configs = List.copyOf(configs);
        }
    }

    /**
     * One {@code results[]} entry.
     *
     * @param request          {@code <request>} or {@code <request>/<subrequest>}
     * @param driver           the driver that serves the device
     * @param pool             its pool
     * @param device           its name in the pool
     * @param shareId          the share's UUID (devices that allow multiple allocations); empty for an exclusive device
     * @param consumedCapacity the capacities this share consumes (bytes, percent, slots), by capacity name;
     *                         empty for an exclusive device
     * @param adminAccess      monitoring access that does not count as using the device
     */
    public record Result(String request, String driver, String pool, String device, Optional<String> shareId,
                         Map<String, Long> consumedCapacity, boolean adminAccess) {

        /** Copies the map (sorted, for stable messages). */
        public Result {
            Objects.requireNonNull(request, "request");
            driver = Objects.requireNonNullElse(driver, "");
            pool = Objects.requireNonNullElse(pool, "");
            device = Objects.requireNonNullElse(device, "");
            shareId = shareId == null ? Optional.empty() : shareId.filter(s -> !s.isEmpty());
            consumedCapacity = consumedCapacity == null ? Map.of() : new TreeMap<>(consumedCapacity);
        }

        /** The request the kubelet matches containers against: {@code req} of {@code req/sub}. */
        public String mainRequest() {
            int slash = request.indexOf('/');
            return slash < 0 ? request : request.substring(0, slash);
        }
    }

    /**
     * One {@code config[]} entry.
     *
     * @param source     {@code FromClass} or {@code FromClaim}
     * @param requests   the requests it applies to ({@code req} or {@code req/sub}); empty = all
     * @param opaque     the opaque entry; empty when the entry is of another (future) type
     */
    public record Config(String source, List<String> requests, Optional<Opaque> opaque) {
        /** Copies the list. */
        public Config {
            source = Objects.requireNonNullElse(source, "");
            requests = requests == null ? List.of() : List.copyOf(requests);
            opaque = opaque == null ? Optional.empty() : opaque;
        }
    }

    /**
     * {@code opaque{driver, parameters}}.
     *
     * @param driver     the driver the parameters are for
     * @param parameters the raw JSON object, exactly as stored
     */
    public record Opaque(String driver, String parameters) {
        /** Nulls become empty. */
        public Opaque {
            driver = Objects.requireNonNullElse(driver, "");
            parameters = Objects.requireNonNullElse(parameters, "");
        }
    }

    /**
     * One {@code reservedFor[]} entry.
     *
     * @param resource {@code pods} for pods
     * @param name     the consumer's name (in the claim's namespace)
     * @param uid      its UID
     */
    public record Consumer(String resource, String name, String uid) {
        /** Nulls become empty. */
        public Consumer {
            resource = Objects.requireNonNullElse(resource, "");
            name = Objects.requireNonNullElse(name, "");
            uid = Objects.requireNonNullElse(uid, "");
        }

        /** A pod (the only consumer the kubelet knows). */
        public boolean isPod() {
            return "pods".equals(resource);
        }
    }
}
