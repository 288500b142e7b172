package io.vgpu.gateway.core.port;

/**
 * The result of {@link PodWriter#bind}: the Binding subresource call, made idempotent.
 *
 * <pre>
 *  POST pods/{name}/binding ─┬─ 201 ───────────────────────────────────────► Bound(alreadyBound=false)
 *                            ├─ 409 ─► GET pod ─┬─ spec.nodeName == node ──► Bound(alreadyBound=true)
 *                            │                  ├─ spec.nodeName == other ─► BoundElsewhere(other)
 *                            │                  └─ otherwise ──────────────► Failed(409 text)
 *                            └─ other error / no answer ──────────────────► Failed
 * </pre>
 */
public sealed interface BindingOutcome permits BindingOutcome.Bound, BindingOutcome.BoundElsewhere, BindingOutcome.Failed {

    /** True for {@link Bound}. */
    boolean ok();

    /** "" for {@link Bound}, else the error text for the extender's {@code Error}. */
    String message();

    /**
     * The pod is bound to the requested node.
     *
     * @param alreadyBound true when it was bound before this call (a retried bind): nothing changed
     */
    record Bound(boolean alreadyBound) implements BindingOutcome {

        @Override
        public boolean ok() {
            return true;
        }

        @Override
        public String message() {
            return "";
        }
    }

    /**
     * The pod is already bound to another node; this bind can never succeed.
     *
     * @param node    the node the pod is bound to
     * @param message the API server's conflict text
     */
    record BoundElsewhere(String node, String message) implements BindingOutcome {

        @Override
        public boolean ok() {
            return false;
        }
    }

    /**
     * The Binding was not created.
     *
     * @param write the failed write (refused with a status, or unanswered)
     */
    record Failed(WriteOutcome write) implements BindingOutcome {

        @Override
        public boolean ok() {
            return false;
        }

        @Override
        public String message() {
            return write.message();
        }
    }
}
