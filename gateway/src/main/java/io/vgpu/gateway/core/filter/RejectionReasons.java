package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.port.SchedulerEvent;

import java.util.Map;
import java.util.TreeMap;

/**
 * How many nodes of a failed filter were rejected for each reason, with reasons fit for a metric label: HAMi's
 * reason words ({@code CardInsufficientMemory}, ...) parsed from {@code FailedNodes} texts the way the
 * FilteringFailed event does; a text without a counted reason word (a fixed text such as
 * {@code node unregistered}) stands for itself, and anything that could carry a variable (digits, or very long)
 * becomes {@link #OTHER}, so that label values stay a small, fixed set.
 */
public final class RejectionReasons {

    /** The reason of a text that is neither a reason list nor a short fixed text. */
    public static final String OTHER = "Other";

    private static final int MAX_FIXED_TEXT = 48;

    private RejectionReasons() {
    }

    /**
     * @param failedNodes node → failure text, as in {@code FailedNodes}
     * @return reason → number of nodes rejected for it (a node with several reasons counts under each), sorted
     */
    public static Map<String, Integer> count(Map<String, String> failedNodes) {
        Map<String, Integer> out = new TreeMap<>();
        failedNodes.values().forEach(text -> {
            Map<String, Integer> words = SchedulerEvent.parseReasons(text);
            if (words.isEmpty()) {
                out.merge(fixedText(text), 1, Integer::sum);
            } else {
                words.keySet().forEach(word -> out.merge(word, 1, Integer::sum));
            }
        });
        return out;
    }

    private static String fixedText(String text) {
        if (text == null || text.isBlank() || text.length() > MAX_FIXED_TEXT) {
            return OTHER;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.isDigit(text.charAt(i))) {
                return OTHER;
            }
        }
        return text.trim();
    }
}
