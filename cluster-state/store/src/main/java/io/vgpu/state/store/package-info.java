/**
 * Hazelcast implementation of {@link io.vgpu.state.model.ClusterState} (DESIGN.md §3):
 * {@link io.vgpu.state.store.HazelcastClusterState} on an embedded member configured in code by
 * {@link io.vgpu.state.store.HazelcastMemberConfig} from a {@link io.vgpu.state.store.StoreConfig}; explicit Compact
 * serializers for every value, outcome and processor; listener-fed local snapshots for the read path.
 *
 * <p>What fans out is O(GPUs), never O(pods) (DESIGN.md §3): every replica's views join the summary map, where the
 * owner of each node key republishes a {@link io.vgpu.state.model.NodeSummary} (usage only) after every change from
 * the node map's local entry listener ({@link io.vgpu.state.store.SummaryPublisher}), with the inventory map, where it
 * republishes the node's {@link io.vgpu.state.model.NodeFacts} only when they change, both under the same key and so
 * on the same partition; a node is scored only on a summary and facts of the same fingerprint
 * ({@link io.vgpu.state.store.NodeViews}). Summaries and facts carry the {@link io.vgpu.state.model.NodeState#version() version} the processors bump; the
 * maps and each replica's snapshots keep only the newest, so late copies change nothing. A new owner (migration,
 * backup promotion) republishes the keys it took over; after a merge every owner republishes its keys as resets.
 */
package io.vgpu.state.store;
