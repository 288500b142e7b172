package io.vgpu.simulate.dra;

import java.util.UUID;

/**
 * Where share IDs come from: every share of a device with {@code allowMultipleAllocations} gets a fresh one
 * ({@code result.shareID}, spec §1.8). Injected so that simulations and tests are reproducible; a search
 * that backtracks draws IDs for shares it later drops, so the IDs a solution carries depend only on the
 * inputs and the source.
 */
@FunctionalInterface
public interface ShareIds {

    /** A new ID, never returned before by this source. */
    String next();

    /** Random UUIDs, as kube-scheduler does. */
    static ShareIds random() {
        return () -> UUID.randomUUID().toString();
    }
}
