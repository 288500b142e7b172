package io.vgpu.gateway;

import java.util.Locale;

/**
 * Where {@code GET /debug/state} (every pod's name, namespace, UID and devices) is served: {@code VGPU_DEBUG_STATE}.
 * Never on an unauthenticated port unless asked for by name.
 */
public enum DebugState {
    /** Not served (the default). */
    OFF,
    /** On the API listener, behind the same client-certificate check as {@code /filter} and {@code /bind}. */
    API,
    /** On the plain-HTTP metrics listener, unauthenticated: for local harnesses, never in a cluster. */
    METRICS;

    /** Parses {@code off}, {@code api} or {@code metrics}. */
    public static DebugState of(String raw) {
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "off", "false" -> OFF;
            case "api" -> API;
            case "metrics" -> METRICS;
            default -> throw new IllegalArgumentException("must be off, api or metrics, not '" + raw + "'");
        };
    }

    /** The value as configured. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
