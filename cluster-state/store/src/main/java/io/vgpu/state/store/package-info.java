/**
 * Hazelcast implementation of {@link io.vgpu.state.model.ClusterState}: the partitioned map of per-node
 * state and its entry processors. Filled by the multi-replica issue; empty until then.
 */
package io.vgpu.state.store;
