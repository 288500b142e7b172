package io.vgpu.deviceplugin.dra;

import io.vertx.core.Future;

/**
 * A part of the node agent that runs only while the node is in DRA mode (DESIGN.md §8): the
 * ResourceSlice publisher, the kubelet DRA plugin. The mode controller starts every component when
 * the node enters DRA mode and stops them when it leaves.
 *
 * <p>Contract: {@link #start()} completes when the component serves; a failed start leaves nothing
 * running. {@link #stop()} is idempotent, may be called after a failed or without a start, and
 * completes when everything the component started is released. Neither blocks the caller.
 */
public interface DraComponent {

    /** Starts serving; fails, with nothing left running, when it cannot. */
    Future<Void> start();

    /** Stops and releases what {@link #start()} took; idempotent. */
    Future<Void> stop();
}
