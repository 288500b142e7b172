package io.vgpu.state.codec;

import java.time.Instant;
import java.util.Objects;

/**
 * A parsed node lock ({@code hami.io/mutex.lock}, spec §11.2).
 *
 * @param time      when the lock was taken
 * @param namespace owner pod namespace; "" for a legacy lock
 * @param name      owner pod name; "" for a legacy lock
 * @param legacy    true when the value was a bare RFC3339 time (no comma): nobody can be checked as owner
 */
public record NodeLock(Instant time, String namespace, String name, boolean legacy) {

    /** Requires a time; null owner parts become "". */
    public NodeLock {
        Objects.requireNonNull(time, "time");
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    /** True when the lock names an owner pod that could be looked up (both parts non-empty), as HAMi checks. */
    public boolean namesOwner() {
        return !namespace.isEmpty() && !name.isEmpty();
    }

    /** True when the lock names exactly this pod. */
    public boolean ownedBy(String podNamespace, String podName) {
        return namespace.equals(podNamespace) && name.equals(podName);
    }
}
