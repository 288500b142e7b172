package io.vgpu.deviceplugin.core.port;

import io.vgpu.deviceplugin.core.mode.ModeSnapshot;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The API-server operations of the mode controller: live reads (never an informer cache: a switch is
 * decided on what is true now) and the two node writes a switch makes. Never blocks; every call has a
 * timeout; a stage fails with the client's error.
 */
public interface ModeCluster {

    /** GET this node; empty when it does not exist. */
    CompletionStage<Optional<NodeInfo>> node();

    /** What a switch is checked against: the node, its pods, its allocated claims, and {@code prepared}'s answer. */
    CompletionStage<ModeSnapshot> snapshot(PreparedClaims prepared);

    /**
     * Removes the register annotation and the handshake ({@code hami.io/node-nvidia-register},
     * {@code hami.io/node-handshake}): in DRA mode the extender must not see devices here.
     */
    CompletionStage<Void> removeDevicePluginAnnotations();

    /** Sets the node label {@code vgpu.io/mode} (a DRA mode chosen by the agent's own setting). */
    CompletionStage<Void> labelMode(String value);
}
