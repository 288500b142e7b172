/**
 * Hazelcast implementation of {@link io.vgpu.state.model.ClusterState} (DESIGN.md §3):
 * {@link io.vgpu.state.store.HazelcastClusterState} on an embedded member configured in code by
 * {@link io.vgpu.state.store.HazelcastMemberConfig} from a {@link io.vgpu.state.store.StoreConfig}; explicit Compact
 * serializers for every value, outcome and processor; listener-fed local snapshots for the read path.
 */
package io.vgpu.state.store;
