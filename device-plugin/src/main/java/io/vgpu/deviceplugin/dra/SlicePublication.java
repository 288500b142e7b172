package io.vgpu.deviceplugin.dra;

import io.vertx.core.Future;

/**
 * The DRA component that publishes the node's ResourceSlice. Beyond start/stop, the mode controller needs
 * to know whether a slice exists (an earlier DRA run) and to delete it when the node leaves DRA mode: in
 * device-plugin mode the node publishes none.
 */
public interface SlicePublication extends DraComponent {

    /** Deletes every slice of this driver on the node; call after {@link #stop()}. */
    Future<Void> deleteSlices();

    /** True when the API server holds a slice of this driver on the node. */
    Future<Boolean> anyPublished();
}
