package io.vgpu.deviceplugin.core.advertise;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The device IDs the plugin hands to kubelet and how they map back to physical GPUs (spec §1.4,
 * §1.6). Every GPU {@code U} is advertised as {@code deviceSplitCount} fake devices {@code U-0},
 * {@code U-1}, …; time-slicing replicas carry a {@code ::<n>} suffix. Pure and thread-safe.
 */
public final class DeviceIds {

    private static final String REPLICA_SEPARATOR = "::";
    /** A 36-character NVIDIA UUID ({@code GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}) has 5 dashes; a split ID 6. */
    private static final int SPLIT_ID_DASHES = 6;

    private DeviceIds() {
    }

    /** The {@code count} fake IDs of GPU {@code uuid}: {@code <uuid>-0} … {@code <uuid>-(count-1)}. */
    public static List<String> splitIds(String uuid, int count) {
        List<String> out = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            out.add(uuid + "-" + i);
        }
        return out;
    }

    /**
     * HAMi {@code physicalDeviceID}: the text before {@code ::} when present; else, for an ID with
     * exactly six {@code -} whose last part is an integer, the ID without {@code -<n>}; else the ID
     * itself (so short test IDs such as {@code GPU-aaa-0} stay as they are).
     */
    public static String physicalId(String id) {
        int replica = id.indexOf(REPLICA_SEPARATOR);
        if (replica >= 0) {
            return id.substring(0, replica);
        }
        if (id.chars().filter(c -> c == '-').count() == SPLIT_ID_DASHES) {
            int last = id.lastIndexOf('-');
            if (last < id.length() - 1 && isGoInt(id.substring(last + 1))) {
                return id.substring(0, last);
            }
        }
        return id;
    }

    /** The ID without its time-slicing replica suffix ({@code U::3} → {@code U}; HAMi {@code AnnotatedID.GetID}). */
    public static String withoutReplica(String id) {
        int replica = id.indexOf(REPLICA_SEPARATOR);
        return replica >= 0 ? id.substring(0, replica) : id;
    }

    /** True when the ID carries a time-slicing replica suffix. */
    public static boolean isReplica(String id) {
        return id.contains(REPLICA_SEPARATOR);
    }

    /** {@link #withoutReplica} of every ID, duplicates removed, first occurrence order kept. */
    public static List<String> uniquePhysical(List<String> ids) {
        Set<String> out = new LinkedHashSet<>();
        for (String id : ids) {
            out.add(withoutReplica(id));
        }
        return List.copyOf(out);
    }

    /** Go {@code strconv.Atoi} acceptance: optional sign, then decimal digits, fitting an int64. */
    private static boolean isGoInt(String s) {
        String digits = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        try {
            Long.parseLong(s.startsWith("+") ? digits : s);
            return true;
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }
}
