package io.vgpu.state.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * A 64-bit fingerprint of a node's registration facts (devices with their MIG profiles, the annotations Fit reads,
 * pair scores), the same in every JVM: a {@link NodeSummary} names the facts it was computed against by it, and a
 * replica joins the summary only with the {@link NodeFacts} of the same fingerprint. Annotations and pair scores are
 * walked in key order (their maps' iteration order differs between JVMs); devices in registration order, which
 * scoring reads. FNV-1a over every field, with lengths, so that no two different walks concatenate alike.
 */
public final class FactsHash {

    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private long h = OFFSET;

    private FactsHash() {
    }

    /** The fingerprint of {@code inventory}'s facts (its name excluded: the map key carries it). */
    public static long of(NodeInventory inventory) {
        FactsHash f = new FactsHash();
        f.mix(inventory.devices().size());
        for (GpuDevice d : inventory.devices()) {
            f.mix(d.id()).mix(d.index()).mix(d.count()).mix(d.devmem()).mix(d.devcore()).mix(d.type())
                    .mix(d.numa()).mix(d.mode()).mix(d.health() ? 1 : 0).mix(d.migProfiles().size());
            for (MigProfile p : d.migProfiles()) {
                f.mix(p.name()).mix(p.memoryMB()).mix(p.core()).mix(p.sliceCount()).mix(p.placements().size());
                for (MigPlacement placement : p.placements()) {
                    f.mix(placement.start()).mix(placement.size());
                }
            }
        }
        Map<String, String> annotations = new TreeMap<>(inventory.annotations());
        f.mix(annotations.size());
        annotations.forEach((k, v) -> f.mix(k).mix(v));
        Map<String, Map<String, Integer>> scores = new TreeMap<>(inventory.pairScores());
        f.mix(scores.size());
        scores.forEach((uuid, row) -> {
            f.mix(uuid).mix(row.size());
            new TreeMap<>(row).forEach((peer, score) -> f.mix(peer).mix(score));
        });
        return f.h;
    }

    private FactsHash mix(int value) {
        for (int shift = 0; shift < 32; shift += 8) {
            h = (h ^ ((value >>> shift) & 0xff)) * PRIME;
        }
        return this;
    }

    private FactsHash mix(String value) {
        mix(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            h = (h ^ (c & 0xff)) * PRIME;
            h = (h ^ (c >>> 8)) * PRIME;
        }
        return this;
    }
}
