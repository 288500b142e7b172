package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.model.DeviceGrant;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.UsageAccounting;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The invariants of what each replica scores on: its summary-fed {@code view} of every node, in {@code /debug/state}
 * with the {@code version} of the node value it was made from. A view is compared only with its owner's copy of the
 * SAME value (same version) seen in the same round of dumps:
 * <ul>
 *   <li><b>view-mismatch</b>: per card, the view's slots, MiB and cores equal what all the charges of that value use
 *       (a summary is computed from its value and nothing else);</li>
 *   <li><b>over-commit</b> (of the view): that usage, less the phantoms and expired reservations of that value, never
 *       exceeds the cards as this harness created them;</li>
 *   <li><b>view-stale</b>: a view that differs from its owner's copy reaches (or passes) the version the owner had
 *       when the difference was first seen within {@link #lagBound}; a view AHEAD of the owner's copy (which lags its own
 *       value: the stale replica's copy by its delay) must be caught up with by that copy as fast. A view that stops
 *       following its node (a dropped event, or a key created again at version 1 while the view kept version 90 of
 *       the old one and drops every new summary) is caught, however right its old usage looks.</li>
 * </ul>
 * Why not against whatever the owner's dump holds: the dumps of one round are taken one after another, seconds
 * apart on a loaded machine, so a view and its owner's copy are usually different values of the node. What one value
 * holds beyond capacity as phantoms (charges of pods deleted, not released yet) or expired reservations (dropped only
 * by the sweep or the next reservation) is not in the other; excusing one value's phantoms from another value's usage
 * flagged views of healthy nodes (one CI run in two, e.g. a view of a node whose owner had just been killed). The
 * owner check ({@link ViewChecks}) covers every value's live charges; this covers how views follow the values.
 *
 * <p>Not thread-safe: the checker calls it under its lock.
 */
final class ScoredViews {

    private final ChaosSettings settings;
    /** The cards of every harness node, as the harness created them. */
    private final Map<String, List<GpuDevice>> cards;
    private final Violations violations;
    /** This round's owners' copies, per node and version. */
    private final Map<String, Map<Long, OwnerCopy>> owners = new HashMap<>();
    /** This round's views. */
    private final List<Scored> views = new ArrayList<>();
    /** Per replica and node, since when its view differs from its owner's copy, and the owner's version then. */
    private final Map<String, Behind> behind = new HashMap<>();
    /** Per replica and node, since when its view has differed from its owner's copy of the same version. */
    private final Map<String, Long> mismatchSince = new HashMap<>();
    private int compared;

    ScoredViews(ChaosSettings settings, Map<String, List<GpuDevice>> cards, Violations violations) {
        this.settings = settings;
        this.cards = cards;
        this.violations = violations;
    }

    /** Views compared with their owner's copy of the same value so far. */
    int compared() {
        return compared;
    }

    void begin() {
        owners.clear();
        views.clear();
    }

    /**
     * One owner's copy of a node in this round.
     *
     * @param all     the grants of every charge of the value
     * @param excused the grants of its phantoms and expired reservations
     */
    void owner(String replica, boolean stale, String node, long version, long nowMillis,
               List<List<DeviceGrant>> all, List<List<DeviceGrant>> excused) {
        owners.computeIfAbsent(node, n -> new HashMap<>())
                .put(version, new OwnerCopy(replica, stale, version, nowMillis, all, excused));
    }

    /** One replica's {@code view} array in this round. */
    void view(String replica, boolean stale, long nowMillis, JsonNode nodes) {
        views.add(new Scored(replica, stale, nowMillis, nodes));
    }

    /** After the round's dumps. */
    void end() {
        for (Scored scored : views) {
            for (JsonNode node : scored.nodes()) {
                check(scored, node);
            }
        }
    }

    private void check(Scored scored, JsonNode node) {
        String name = node.path("name").asText();
        List<GpuDevice> cards = this.cards.get(name);
        Map<Long, OwnerCopy> copies = owners.get(name);
        if (cards == null || copies == null || copies.isEmpty()) {
            return; // not a harness node, or no owner dumped it this round (killed, migrating): nothing to compare
        }
        long version = node.path("version").asLong(-1);
        String key = scored.replica() + " " + name;
        OwnerCopy same = copies.get(version);
        if (same != null) {
            behind.remove(key);
            compared++;
            sameValue(scored, name, cards, node, same);
            return;
        }
        OwnerCopy newest = copies.values().stream().max(Comparator.comparingLong(OwnerCopy::version))
                .orElseThrow();
        long ownerVersion = newest.version();
        Behind was = behind.get(key);
        if (was != null && scored.nowMillis() - was.seenMillis() > settings.checkEvery().multipliedBy(3).toMillis()) {
            was = null; // not compared for a while (the replica or the owner was down): start again
        }
        if (was != null && ownerVersion < was.ownerVersion()) {
            was = null; // the owner's value went back (the key was created again): follow it from here
        }
        if (was != null && was.caughtUp(version, ownerVersion)) {
            was = null; // the side that lagged reached where the other was: a new difference, if any, starts now
        }
        if (was == null) {
            behind.put(key, new Behind(scored.nowMillis(), ownerVersion, version, scored.nowMillis()));
            return;
        }
        behind.put(key, new Behind(was.sinceMillis(), was.ownerVersion(), was.viewVersion(), scored.nowMillis()));
        long lag = scored.nowMillis() - was.sinceMillis();
        long bound = lagBound(scored.stale() || newest.stale());
        if (lag > bound) {
            violations.add("view-stale", key, "view of " + scored.replica() + ": " + name + " at version " + version
                    + ", its owner " + newest.replica() + "'s copy at " + ownerVersion + "; " + lag + " ms ago they"
                    + " were at " + was.viewVersion() + " and " + was.ownerVersion() + ", and the side behind has "
                    + "not reached the other's version of then (bound " + bound + " ms)");
        }
    }

    /**
     * The view and its owner's copy name the same version: the usage must be that value's, within the cards. Two
     * different values of one version exist for a moment after a failover or a merge (the dead owner published a change
     * its backup never got; the promoted value's next change reuses the version, and the view keeps the first copy
     * until the node changes again): a difference is a violation once it has lasted {@link #lagBound}, as a stuck view.
     */
    private void sameValue(Scored scored, String name, List<GpuDevice> cards, JsonNode node, OwnerCopy copy) {
        Map<String, DeviceUsage> all = byId(UsageAccounting.nodeUsage(cards, copy.all()));
        Map<String, DeviceUsage> excused = byId(UsageAccounting.nodeUsage(cards, copy.excused()));
        String key = scored.replica() + " " + name;
        String differs = differs(node, all, copy);
        if (differs != null) {
            long since = mismatchSince.computeIfAbsent(key, k -> scored.nowMillis());
            long bound = lagBound(scored.stale() || copy.stale());
            if (scored.nowMillis() - since > bound) {
                violations.add("view-mismatch", key, "view of " + scored.replica() + ": " + name + " version "
                        + copy.version() + " " + differs + " (different from its owner's copy for "
                        + (scored.nowMillis() - since) + " ms, bound " + bound + " ms)");
            }
            return;
        }
        mismatchSince.remove(key);
        for (JsonNode used : node.path("devices")) {
            String id = used.path("id").asText();
            DeviceUsage less = excused.get(id);
            int slots = used.path("used").asInt();
            int mem = used.path("usedmem").asInt();
            int cores = used.path("usedcores").asInt();
            GpuDevice card = cards.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
            int liveSlots = slots - less.used();
            int liveMem = mem - less.usedmem();
            int liveCores = cores - less.usedcores();
            if (liveSlots > card.count() || liveMem > card.devmem() || liveCores > card.devcore()) {
                violations.add("over-commit", scored.replica() + " view " + name + " " + id, "view of "
                        + scored.replica() + " (the usage it scores on): " + name + " version " + copy.version()
                        + "'s card " + id + " at slots " + liveSlots + "/" + card.count() + ", MiB " + liveMem + "/"
                        + card.devmem() + ", cores " + liveCores + "/" + card.devcore()
                        + (less.used() == 0 ? "" : " (after taking off " + less.used()
                        + " phantom or expired charges of that version)"));
            }
        }
    }

    /** How the view's usage differs from all the charges of its owner's copy, card by card; null when it does not. */
    private static String differs(JsonNode node, Map<String, DeviceUsage> all, OwnerCopy copy) {
        for (JsonNode used : node.path("devices")) {
            String id = used.path("id").asText();
            DeviceUsage value = all.get(id);
            if (value == null) {
                return "has card " + id + ", which the harness did not create";
            }
            int slots = used.path("used").asInt();
            int mem = used.path("usedmem").asInt();
            int cores = used.path("usedcores").asInt();
            if (slots != value.used() || mem != value.usedmem() || cores != value.usedcores()) {
                return "card " + id + " at slots " + slots + ", MiB " + mem + ", cores " + cores + "; its owner "
                        + copy.replica() + "'s copy of that version charges slots " + value.used() + ", MiB "
                        + value.usedmem() + ", cores " + value.usedcores();
            }
        }
        return null;
    }

    /** How long a view may differ from its owner's copy without moving on: the stale replica's lag twice, slack. */
    long lagBound(boolean stale) {
        return ChaosSettings.SLACK.plus(settings.checkEvery().multipliedBy(2))
                .plus(stale ? settings.informerDelay().multipliedBy(2) : Duration.ZERO).toMillis();
    }

    private static Map<String, DeviceUsage> byId(List<DeviceUsage> usage) {
        Map<String, DeviceUsage> out = new HashMap<>();
        usage.forEach(u -> out.put(u.id(), u));
        return out;
    }

    private record OwnerCopy(String replica, boolean stale, long version, long nowMillis, List<List<DeviceGrant>> all,
                             List<List<DeviceGrant>> excused) {
    }

    private record Scored(String replica, boolean stale, long nowMillis, JsonNode nodes) {
    }

    /** A difference first seen at {@code sinceMillis}, the owner's copy and the view being at those versions. */
    private record Behind(long sinceMillis, long ownerVersion, long viewVersion, long seenMillis) {

        /**
         * Whether the side that was behind then has reached the other's version of then: the view, the owner's copy
         * of that time; or the owner's copy (which lags its own value: the stale replica's by its delay), the view's.
         */
        boolean caughtUp(long view, long owner) {
            return viewVersion < ownerVersion ? view >= ownerVersion : owner >= viewVersion;
        }
    }
}
