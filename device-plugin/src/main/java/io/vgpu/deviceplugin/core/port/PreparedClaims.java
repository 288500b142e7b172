package io.vgpu.deviceplugin.core.port;

import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The ResourceClaims prepared on this node and not unprepared yet: while any exist, the node may not leave
 * DRA mode. The kubelet plugin's checkpoint is the authority; until it is wired in, the API server's view
 * stands in (every claim allocated to the node counts as prepared, which refuses at least as often).
 * Never blocks.
 */
public interface PreparedClaims {

    /** UIDs of the prepared claims. */
    CompletionStage<Set<String>> preparedClaimUids();
}
