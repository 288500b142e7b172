package io.vgpu.deviceplugin.core.port;

import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The ResourceClaims prepared on this node and not unprepared yet: while any exist, the node may not leave
 * DRA mode. The kubelet plugin's checkpoint is the authority (read from disk while the plugin is stopped).
 * Never blocks.
 */
public interface PreparedClaims {

    /** UIDs of the prepared claims. */
    CompletionStage<Set<String>> preparedClaimUids();
}
