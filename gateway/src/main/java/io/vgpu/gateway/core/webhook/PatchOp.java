package io.vgpu.gateway.core.webhook;

import java.util.Objects;

/**
 * One RFC 6902 JSON Patch operation on the pod as the API server serialises it.
 *
 * <p>{@code value} is a plain Java value ready for any JSON encoder: {@link String}, an immutable
 * {@link java.util.Map} of String to value, or an immutable {@link java.util.List}; null for
 * {@link Op#REMOVE}.
 *
 * @param op    the operation
 * @param path  RFC 6901 pointer (see {@link JsonPointer})
 * @param value the value to add or replace with; null for remove
 */
public record PatchOp(Op op, String path, Object value) {

    /** The operations the webhook emits. */
    public enum Op {
        /** Adds an object member (replacing an existing one) or inserts/appends an array element. */
        ADD("add"),
        /** Replaces an existing value. */
        REPLACE("replace"),
        /** Removes an existing value. */
        REMOVE("remove");

        private final String wire;

        Op(String wire) {
            this.wire = wire;
        }

        /** The RFC 6902 {@code op} string. */
        public String wire() {
            return wire;
        }
    }

    /** Requires op and path; remove carries no value. */
    public PatchOp {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(path, "path");
        if (op == Op.REMOVE && value != null) {
            throw new IllegalArgumentException("remove carries no value");
        }
    }

    /** An {@code add}. */
    public static PatchOp add(String path, Object value) {
        return new PatchOp(Op.ADD, path, value);
    }

    /** A {@code replace}. */
    public static PatchOp replace(String path, Object value) {
        return new PatchOp(Op.REPLACE, path, value);
    }

    /** A {@code remove}. */
    public static PatchOp remove(String path) {
        return new PatchOp(Op.REMOVE, path, null);
    }
}
