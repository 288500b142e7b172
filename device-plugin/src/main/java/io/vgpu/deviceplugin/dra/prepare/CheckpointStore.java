package io.vgpu.deviceplugin.dra.prepare;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * The durable record of prepared claims (a port: one JSON file written atomically in the plugin's
 * state directory). It is what lets NodeUnprepareResources work after a restart and after the claim
 * object is gone, and a repeated NodePrepareResources answer the same.
 */
public interface CheckpointStore {

    /** Every prepared claim by UID; empty when nothing was ever saved. Fails when the record exists but cannot be read. */
    CompletionStage<Map<String, PreparedClaim>> load();

    /** Replaces the record with {@code claims}; when the stage completes it is on disk, whole. */
    CompletionStage<Void> save(Map<String, PreparedClaim> claims);
}
