/**
 * Hazelcast implementation of {@link io.vgpu.state.model.ClusterState} (DESIGN.md §3):
 * {@link io.vgpu.state.store.HazelcastClusterState} on an embedded member configured in code by
 * {@link io.vgpu.state.store.HazelcastMemberConfig} from a {@link io.vgpu.state.store.StoreConfig}; explicit Compact
 * serializers for every value, outcome and processor; listener-fed local snapshots for the read path.
 *
 * <p>What fans out is O(GPUs), never O(pods) (DESIGN.md §3): every replica's views are fed by the summary map, where
 * the owner of each node key republishes a {@link io.vgpu.state.model.NodeSummary} after every change from the node
 * map's local entry listener ({@link io.vgpu.state.store.SummaryPublisher}), under the same key and so on the same
 * partition. Summaries carry the {@link io.vgpu.state.model.NodeState#version() version} the processors bump; the
 * summary map and each replica's snapshot keep only the newest, so late copies change nothing. A new owner (migration,
 * backup promotion) republishes the keys it took over; after a merge every owner republishes its keys as resets.
 */
package io.vgpu.state.store;
