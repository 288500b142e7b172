package io.vgpu.gateway.core.port;

/** The result of {@link NodeLockPort#release}: HAMi's {@code ReleaseNodeLock} (spec §11.2) as an outcome. */
public sealed interface ReleaseOutcome permits ReleaseOutcome.Released, ReleaseOutcome.Failed {

    /** True for {@link Released}. */
    boolean ok();

    /**
     * The node no longer carries this pod's lock.
     *
     * @param removed true when this call removed the annotation; false when there was nothing to remove or
     *                the lock belongs to someone else (left in place)
     */
    record Released(boolean removed) implements ReleaseOutcome {

        @Override
        public boolean ok() {
            return true;
        }
    }

    /**
     * The node could not be read, or every removal attempt failed.
     *
     * @param message HAMi's error text, e.g. {@code failed to release node lock (node=n1, ...): <cause>}
     */
    record Failed(String message) implements ReleaseOutcome {

        @Override
        public boolean ok() {
            return false;
        }
    }
}
