package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What changed in each node's charges from one owner's dump to the next, kept for the last {@value #KEPT} changes
 * per node, so that an over-commit's report says how the node got there: which charge appeared (a Bound charge of a
 * pod bound long before, recorded again after it had gone: the under-count that let a reservation in), which went,
 * and under which owner and version. A violation's final state alone shows only legitimate pods (the soak of
 * 2026-12-07's open over-commit, docs/reliability.md). Only owners' dumps are followed (full values live there).
 * Not thread-safe: the checker calls it under its lock.
 */
final class ChargeHistory {

    private static final int KEPT = 40;

    private final long startMillis;
    private final Map<String, Map<String, String>> last = new HashMap<>();
    private final Map<String, Deque<String>> changes = new HashMap<>();

    /** @param startMillis the run's start, for "+t s" times */
    ChargeHistory(long startMillis) {
        this.startMillis = startMillis;
    }

    /** Records one owner's dump of {@code node} ({@code /debug/state}'s node object), taken at {@code nowMillis}. */
    void owner(String replica, JsonNode node, long nowMillis) {
        String name = node.path("name").asText();
        Map<String, String> now = new LinkedHashMap<>();
        for (JsonNode charge : node.path("charges")) {
            now.put(charge.path("uid").asText(), charge.path("name").asText() + " "
                    + charge.path("state").asText() + " " + charge.path("devices").asText());
        }
        Map<String, String> before = last.put(name, now);
        if (before == null) {
            return;
        }
        List<String> diff = new ArrayList<>();
        now.forEach((uid, c) -> {
            String was = before.get(uid);
            if (was == null) {
                diff.add("+" + c);
            } else if (!was.equals(c)) {
                diff.add("~" + was + " -> " + c);
            }
        });
        before.forEach((uid, c) -> {
            if (!now.containsKey(uid)) {
                diff.add("-" + c);
            }
        });
        if (diff.isEmpty()) {
            return;
        }
        Deque<String> kept = changes.computeIfAbsent(name, n -> new ArrayDeque<>());
        kept.addLast(String.format(Locale.ROOT, "[+%.1f s %s v%d] %s", (nowMillis - startMillis) / 1000.0,
                replica, node.path("version").asLong(-1), String.join(", ", diff)));
        while (kept.size() > KEPT) {
            kept.removeFirst();
        }
    }

    /** The changes kept for {@code node}, oldest first, or "none". */
    String of(String node) {
        Deque<String> kept = changes.get(node);
        return kept == null || kept.isEmpty() ? "none" : String.join(" | ", kept);
    }
}
