package io.vgpu.deviceplugin.core.port;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * This agent's Node as an informer sees it: its labels (the mode label), annotations (the register
 * annotation, the node lock, {@code hami.io/device-cordon}) and UID (the ResourceSlice's owner). No API
 * call per read. Thread-safe.
 */
public interface NodeWatch {

    /** The node as last seen; empty until the informer has listed it (or while the node does not exist). */
    Optional<NodeInfo> current();

    /**
     * Calls {@code listener} with the node after every change the informer sees, on an informer thread
     * (hand off quickly); the handle stops the calls.
     */
    AutoCloseable subscribe(Consumer<NodeInfo> listener);
}
