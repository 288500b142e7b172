package io.vgpu.gateway.core.webhook;

/**
 * RFC 6901 JSON Pointers: each reference token is escaped ({@code ~} → {@code ~0}, then {@code /} →
 * {@code ~1}) and prefixed with {@code /}. Resource names such as {@code nvidia.com/gpucores} become
 * {@code nvidia.com~1gpucores}.
 */
public final class JsonPointer {

    private JsonPointer() {
    }

    /** Escapes one reference token. */
    public static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** The pointer to the given tokens ({@code of("spec", "containers", 0)} → {@code /spec/containers/0}). */
    public static String of(Object... tokens) {
        StringBuilder out = new StringBuilder();
        for (Object t : tokens) {
            out.append('/').append(escape(String.valueOf(t)));
        }
        return out.toString();
    }
}
