package io.vgpu.gateway.core.nodelock;

/** The result of a live {@code GET pod} of the pod a node lock names. */
public sealed interface OwnerLookup permits OwnerLookup.Exists, OwnerLookup.NotFound, OwnerLookup.Failed {

    /** The owner pod exists. */
    record Exists() implements OwnerLookup {
    }

    /** The API answered 404: the lock is dangling. */
    record NotFound() implements OwnerLookup {
    }

    /**
     * Any other error.
     *
     * @param error the client's error text
     */
    record Failed(String error) implements OwnerLookup {
    }
}
