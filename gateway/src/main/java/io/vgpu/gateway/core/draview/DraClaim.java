package io.vgpu.gateway.core.draview;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An allocated ResourceClaim, trimmed to its results on this driver's devices (spec/dra-spec.md §1.4, §3.5).
 *
 * @param namespace metadata.namespace
 * @param name      metadata.name
 * @param pods      names of the pods in {@code status.reservedFor} (sorted; may be empty between allocation and
 *                  reservation)
 * @param results   {@code status.allocation.devices.results} of driver {@code gpu.vgpu.io}, in order
 */
public record DraClaim(String namespace, String name, List<String> pods, List<Result> results) {

    /** Copies the lists. */
    public DraClaim {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        pods = pods == null ? List.of() : List.copyOf(pods);
        results = results == null ? List.of() : List.copyOf(results);
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }

    /**
     * One allocated device share.
     *
     * @param pool        {@code pool}: the node, for this node-local driver
     * @param device      {@code device}, e.g. {@code gpu-0}
     * @param memoryBytes {@code consumedCapacity.memory}; empty when the result carries none (a whole device)
     * @param cores       {@code consumedCapacity.cores}; empty when none
     * @param slots       {@code consumedCapacity.slots}; empty when none
     */
    public record Result(String pool, String device, OptionalLong memoryBytes, OptionalLong cores,
                         OptionalLong slots) {

        /** Requires the device identity. */
        public Result {
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(device, "device");
            memoryBytes = memoryBytes == null ? OptionalLong.empty() : memoryBytes;
            cores = cores == null ? OptionalLong.empty() : cores;
            slots = slots == null ? OptionalLong.empty() : slots;
        }
    }
}
