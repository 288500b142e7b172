package io.vgpu.gateway.core.port;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Whether this replica may receive traffic ({@code GET /readyz}). Ready means every check passes;
 * the checks will be "informers synced" and "Hazelcast member joined".
 *
 * <p>Contract: {@link #notReady()} is called on an event loop for every probe, so it must be
 * thread-safe, must not block and should be cheap (read a flag, not a cluster).
 */
@FunctionalInterface
public interface Readiness {

    /** Always ready (nothing to wait for). */
    Readiness ALWAYS = List::of;

    /**
     * @return the names of the checks that do not pass yet, in a stable order; empty when ready
     */
    List<String> notReady();

    /** Whether every check passes. */
    default boolean isReady() {
        return notReady().isEmpty();
    }

    /**
     * Readiness from named checks.
     *
     * @param checks check name → current state; each supplier must follow this interface's contract
     */
    static Readiness of(Map<String, BooleanSupplier> checks) {
        Map<String, BooleanSupplier> copy = new LinkedHashMap<>(checks);
        return () -> {
            List<String> failing = new ArrayList<>();
            copy.forEach((name, check) -> {
                if (!check.getAsBoolean()) {
                    failing.add(name);
                }
            });
            return List.copyOf(failing);
        };
    }
}
