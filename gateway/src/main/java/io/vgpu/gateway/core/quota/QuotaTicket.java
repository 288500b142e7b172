package io.vgpu.gateway.core.quota;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A quota ticket: what the webhook reserved in a namespace's shared quota for one pod it translated to DRA claims
 * (issue 13 item 2), and the value of the pod annotation {@code vgpu.io/quota-ticket} that carries it to the
 * informer: {@code <id>;memory=<MiB>;cores=<percent>}. The ticket's charge lives in the namespace's quota entry
 * under {@link #chargeKey()} (never a pod UID: pod UIDs are bare UUIDs), first with a deadline, then, once the pod
 * is seen, as the pod's charge without one. Pure.
 *
 * @param id        random identifier (lowercase hex and dashes, 1–64 characters)
 * @param memoryMiB GPU memory reserved, MiB (≥ 0)
 * @param cores     GPU cores reserved, percent of a card (≥ 0)
 */
public record QuotaTicket(String id, long memoryMiB, long cores) {

    /** Prefix of the charge keys of tickets in a namespace's quota entry. */
    public static final String KEY_PREFIX = "ticket/";

    private static final Pattern ID = Pattern.compile("[0-9a-f-]{1,64}");
    private static final Pattern VALUE = Pattern.compile("([0-9a-f-]{1,64});memory=(\\d{1,15});cores=(\\d{1,15})");

    /** Checks the identifier and the amounts. */
    public QuotaTicket {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("ticket id must be 1-64 lowercase hex digits or dashes: " + id);
        }
        if (memoryMiB < 0 || cores < 0) {
            throw new IllegalArgumentException("ticket amounts must not be negative: " + memoryMiB + ", " + cores);
        }
    }

    /** The key of this ticket's charge in its namespace's quota entry. */
    public String chargeKey() {
        return KEY_PREFIX + id;
    }

    /** The annotation value. */
    public String encode() {
        return id + ";memory=" + memoryMiB + ";cores=" + cores;
    }

    /** Parses an annotation value; empty when it is not one this gateway wrote. */
    public static Optional<QuotaTicket> decode(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Matcher m = VALUE.matcher(value.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new QuotaTicket(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
    }

    /** Whether a charge key of a quota entry belongs to a ticket. */
    public static boolean isTicketKey(String chargeKey) {
        return chargeKey != null && chargeKey.startsWith(KEY_PREFIX);
    }
}
