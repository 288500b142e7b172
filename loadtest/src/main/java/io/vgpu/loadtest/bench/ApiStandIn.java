package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeLockPort;
import io.vgpu.gateway.core.port.PodWriter;

/**
 * The Kubernetes ports a benchmark replica runs on: the {@link FastApiSink} itself (in the heap probe), or a
 * {@link RemoteSink} to it from a replica's own JVM.
 */
interface ApiStandIn extends PodWriter, NodeLockPort, ClusterCache {

    /** Adds an informer listener; it first receives every object already known (nodes, then pods). */
    void subscribe(ClusterEvents listener);
}
