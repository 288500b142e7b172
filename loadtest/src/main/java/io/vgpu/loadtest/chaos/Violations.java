package io.vgpu.loadtest.chaos;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every invariant violation of one run, once per subject, with when it was found (seconds after the load started):
 * the checker, the driver (the device plugin, the late binds) and the API server's records report here. Logged at
 * once, since a long soak's replica logs are read around the moment it happened. Thread-safe.
 */
final class Violations {

    private static final Logger LOG = LoggerFactory.getLogger(Violations.class);

    private final long startMillis;
    private final Map<String, String> found = new LinkedHashMap<>();
    private long firstAtMillis = -1;

    /** @param startMillis when the load started (epoch millis): violation times are counted from it */
    Violations(long startMillis) {
        this.startMillis = startMillis;
    }

    /** Records a violation of {@code kind} about {@code subject} unless one was recorded already. */
    /** When the load started (epoch millis). */
    long startMillis() {
        return startMillis;
    }

    synchronized void add(String kind, String subject, String details) {
        String key = kind + " " + subject;
        if (found.containsKey(key)) {
            return;
        }
        long at = System.currentTimeMillis() - startMillis;
        if (firstAtMillis < 0) {
            firstAtMillis = at;
        }
        String text = String.format(Locale.ROOT, "[+%.1f s] %s: %s", at / 1000.0, kind, details);
        found.put(key, text);
        LOG.warn("chaos: VIOLATION {}", text);
    }

    /** Every violation so far, "[+t s] kind: details", in the order found. */
    synchronized List<String> all() {
        return new ArrayList<>(found.values());
    }

    synchronized boolean any() {
        return !found.isEmpty();
    }

    /** Milliseconds from the start of the load to the first violation; -1 when there is none. */
    synchronized long firstAtMillis() {
        return firstAtMillis;
    }
}
