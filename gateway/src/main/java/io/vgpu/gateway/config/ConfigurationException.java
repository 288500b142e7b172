package io.vgpu.gateway.config;

import java.util.List;

/**
 * Start-up configuration is unusable: one or more bad values, missing required keys or unknown
 * {@code VGPU_} keys. The message lists every problem, one per line, so one failed start tells the
 * operator everything to fix.
 */
public final class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /** @param problems one line per problem, in the order found */
    public ConfigurationException(List<String> problems) {
        super("invalid configuration (" + problems.size() + " problem" + (problems.size() == 1 ? "" : "s") + "):\n  "
                + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem found, one line each. */
    public List<String> problems() {
        return problems;
    }
}
