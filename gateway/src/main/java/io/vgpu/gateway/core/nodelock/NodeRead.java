package io.vgpu.gateway.core.nodelock;

/**
 * What one live {@code GET node} returned, as far as the node lock cares. The adapter does the GET
 * (never the informer cache: HAMi reads the lock live) and hands the result to the decision functions.
 */
public sealed interface NodeRead permits NodeRead.Found, NodeRead.Failed {

    /** A node that has no {@code hami.io/mutex.lock} annotation. */
    static NodeRead unlocked() {
        return new Found(null);
    }

    /** A node whose lock annotation has {@code value}. */
    static NodeRead locked(String value) {
        return new Found(value);
    }

    /**
     * The node was read.
     *
     * @param lock the {@code hami.io/mutex.lock} value, or null when the annotation is absent
     */
    record Found(String lock) implements NodeRead {

        /** True when the annotation is present (even with an empty value, as in Go). */
        public boolean isLocked() {
            return lock != null;
        }
    }

    /**
     * The GET failed (node not found, API unreachable, ...).
     *
     * @param error the client's error text, e.g. {@code nodes "node-1" not found}
     */
    record Failed(String error) implements NodeRead {
    }
}
