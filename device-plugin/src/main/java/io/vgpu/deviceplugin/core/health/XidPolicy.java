package io.vgpu.deviceplugin.core.health;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which XID critical errors mark a GPU unhealthy (NVIDIA's {@code getDisabledHealthCheckXids}, spec
 * §1.5), from {@code DP_DISABLE_HEALTHCHECKS} and {@code DP_ENABLE_HEALTHCHECKS}. Precedence: the
 * explicitly disabled XIDs ({@code all}/{@code xids} = every XID), then the built-in application XIDs
 * {@value #APPLICATION_XIDS_TEXT}, then the explicitly enabled XIDs ({@code all} = every XID), which
 * win. Immutable and thread-safe.
 */
public final class XidPolicy {

    /** The XIDs that are application errors: the GPU stays healthy. */
    public static final List<Long> APPLICATION_XIDS = List.of(13L, 31L, 43L, 45L, 68L, 109L);
    static final String APPLICATION_XIDS_TEXT = "13, 31, 43, 45, 68, 109";
    /** The map key meaning "every XID". */
    private static final long ALL = 0;
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** XID → disabled; key {@link #ALL} is the "every XID" switch. */
    private final Map<Long, Boolean> disabled;

    private XidPolicy(Map<Long, Boolean> disabled) {
        this.disabled = Map.copyOf(disabled);
    }

    /**
     * @param disableEnv {@code DP_DISABLE_HEALTHCHECKS}, null = unset
     * @param enableEnv  {@code DP_ENABLE_HEALTHCHECKS}, null = unset
     */
    public static XidPolicy fromEnv(String disableEnv, String enableEnv) {
        Map<Long, Boolean> disabled = new LinkedHashMap<>(parse(disableEnv));
        for (long xid : APPLICATION_XIDS) {
            disabled.put(xid, true);
        }
        for (long xid : parse(enableEnv).keySet()) {
            disabled.put(xid, false);
        }
        return new XidPolicy(disabled);
    }

    /**
     * The XIDs named by one env value: lower-cased, split on {@code ,}, trimmed; {@code all} or
     * {@code xids} means every XID (returned as the single XID 0); blanks, non-integers and negatives are
     * ignored. Sorted.
     */
    public static SortedSet<Long> parseList(String value) {
        return new TreeSet<>(parse(value).keySet());
    }

    private static Map<Long, Boolean> parse(String value) {
        Map<Long, Boolean> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        for (String token : value.toLowerCase(Locale.ROOT).split(",", -1)) {
            String trimmed = token.strip();
            if (trimmed.equals("all") || trimmed.equals("xids")) {
                return Map.of(ALL, true);
            }
            if (!trimmed.isEmpty() && trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
                BigInteger id = new BigInteger(trimmed);
                if (id.compareTo(UINT64_MAX) <= 0) {
                    out.put(id.longValue(), true);
                }
            }
        }
        return out;
    }

    /** True when every XID check is off (the health watcher then does not start). */
    public boolean allDisabled() {
        return disabled.getOrDefault(ALL, false);
    }

    /** True when an XID critical error {@code xid} is ignored. */
    public boolean isDisabled(long xid) {
        Boolean all = disabled.get(ALL);
        if (all != null && !all) {
            return false;
        }
        Boolean explicit = disabled.get(xid);
        return explicit != null ? explicit : allDisabled();
    }
}
