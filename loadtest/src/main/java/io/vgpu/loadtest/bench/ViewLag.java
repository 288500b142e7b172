package io.vgpu.loadtest.bench;

import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuUse;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Why a replica's view does not show every placed pod (the density and heap rows' readiness): for the first nodes whose
 * view holds fewer than {@code perNode} used slots, where the count stops: the owner's stored value (ingest), the
 * summary map (publication) or this replica's view (the listener and the facts join). Read once, when the wait gave
 * up; the reads are remote.
 */
final class ViewLag {

    private static final int SHOWN = 8;

    private ViewLag() {
    }

    static String describe(HazelcastClusterState state, ApiStandIn sink, long perNode) {
        var summaries = state.member().<String, NodeSummary>getMap(HazelcastMemberConfig.SUMMARY_MAP);
        var inventory = state.member().<String, NodeFacts>getMap(HazelcastMemberConfig.INVENTORY_MAP);
        List<String> lagging = new ArrayList<>();
        int count = 0;
        for (var node : sink.nodes()) {
            NodeView view = state.node(node.name());
            long seen = view == null ? -1 : view.devices().stream().mapToLong(DeviceUsage::used).sum();
            if (seen >= perNode) {
                continue;
            }
            count++;
            if (lagging.size() == SHOWN) {
                continue;
            }
            NodeSummary published = summaries.get(node.name());
            NodeFacts facts = inventory.get(node.name());
            Optional<NodeState> stored = read(state, node.name());
            lagging.add(node.name() + ": view " + (view == null ? "absent" : seen + " used")
                    + ", summary map " + (published == null ? "absent" : "v" + published.version() + " "
                    + published.usage().stream().mapToLong(GpuUse::used).sum() + " used, facts "
                    + Long.toHexString(published.factsHash()))
                    + ", inventory " + (facts == null ? "absent" : "v" + facts.version() + " " + Long.toHexString(facts.hash()))
                    + ", owner " + stored.map(s -> "v" + s.version() + (s.registered() ? "" : " unregistered") + " "
                    + s.view().devices().stream().mapToLong(DeviceUsage::used).sum() + " used").orElse("unreadable"));
        }
        return count + " node(s) short of " + perNode + " in this view, e.g. " + String.join("; ", lagging);
    }

    private static Optional<NodeState> read(HazelcastClusterState state, String node) {
        try {
            return state.readNode(node).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
