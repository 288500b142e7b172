package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.core.outcome.Outcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The node-local over-commit guard (spec/dra-spec.md §4.3 step 2, the last line of defence behind
 * the scheduler): a claim may be prepared only if, on every GPU it uses, its shares plus the shares
 * of every claim already prepared on this node fit the GPU's {@code memory}, {@code cores} and
 * {@code slots} capacities, and an exclusive allocation shares its GPU with nothing.
 *
 * <pre>
 *  for each GPU g the candidate uses, for each capacity c:
 *      Σ prepared(other claims, g, c) + Σ candidate(g, c)  ≤  capacity(g, c)      else refuse
 *  exclusive share on g  ⇒  no other claim's share on g (and vice versa)           else refuse
 * </pre>
 *
 * The arithmetic only; callers make "check, then record" atomic (the prepare service runs them one
 * at a time). Pure; thread-safe.
 */
final class ShareLedger {

    private final NodeGpus gpus;

    /** @param gpus the capacities */
    public ShareLedger(NodeGpus gpus) {
        this.gpus = Objects.requireNonNull(gpus, "gpus");
    }

    /**
     * @param prepared  the claims prepared now (an entry for the candidate's own UID is ignored: a
     *                  re-prepare replaces it)
     * @param candidate the claim to admit
     * @return ok (true), or the refusal naming the GPU, the capacity and the numbers
     */
    public Outcome<Boolean> admit(Collection<PreparedClaim> prepared, PreparedClaim candidate) {
        Map<String, List<Share>> mine = byDevice(candidate.shares());
        for (Map.Entry<String, List<Share>> entry : mine.entrySet()) {
            String device = entry.getKey();
            NodeGpu gpu = gpus.byName(device).orElse(null);
            if (gpu == null) {
                return Outcome.failed(device + " is not a GPU of this node");
            }
            List<Share> others = new ArrayList<>();
            int otherClaims = 0;
            for (PreparedClaim p : prepared) {
                if (p.ref().uid().equals(candidate.ref().uid())) {
                    continue;
                }
                List<Share> onGpu = p.shares().stream().filter(s -> s.deviceName().equals(device)).toList();
                if (!onGpu.isEmpty()) {
                    others.addAll(onGpu);
                    otherClaims++;
                }
            }
            String where = "GPU " + device + " (" + gpu.uuid() + ")";
            if (!others.isEmpty() && (entry.getValue().stream().anyMatch(Share::exclusive) || others.stream().anyMatch(Share::exclusive))) {
                return Outcome.failed(where + " is allocated exclusively and already prepared for " + otherClaims
                        + " other claim(s) on this node; an exclusive allocation shares its GPU with nothing");
            }
            for (String capacity : Capacities.ALL) {
                long asked = sum(entry.getValue(), capacity);
                long taken = sum(others, capacity);
                long total = gpu.capacity(capacity);
                if (asked + taken > total) {
                    return Outcome.failed(where + ": this claim's " + capacity + " " + show(capacity, asked) + " plus "
                            + show(capacity, taken) + " already prepared for " + otherClaims + " other claim(s) exceeds its "
                            + capacity + " capacity " + show(capacity, total) + " (the scheduler's view and this node "
                            + "disagree; the claim is refused to keep the GPU from being over-committed)");
                }
            }
        }
        return Outcome.ok(true);
    }

    private static Map<String, List<Share>> byDevice(List<Share> shares) {
        Map<String, List<Share>> out = new LinkedHashMap<>();
        shares.forEach(s -> out.computeIfAbsent(s.deviceName(), k -> new ArrayList<>()).add(s));
        return out;
    }

    private static long sum(List<Share> shares, String capacity) {
        long total = 0;
        for (Share s : shares) {
            total = Math.addExact(total, s.amount(capacity));
        }
        return total;
    }

    private static String show(String capacity, long amount) {
        return switch (capacity) {
            case Capacities.MEMORY -> amount % Mib.BYTES == 0 ? amount / Mib.BYTES + " MiB" : amount + " bytes";
            case Capacities.CORES -> amount + "%";
            default -> Long.toString(amount);
        };
    }
}
