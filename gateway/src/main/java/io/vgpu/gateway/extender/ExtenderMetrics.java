package io.vgpu.gateway.extender;

/** Where the extender verbs record their latency, by outcome. */
public interface ExtenderMetrics {

    /** Records nothing. */
    ExtenderMetrics NONE = new ExtenderMetrics() {
        @Override
        public void filter(String outcome, long nanos) {
        }

        @Override
        public void bind(String outcome, long nanos) {
        }
    };

    /** One {@code /filter} answered with {@code outcome} ({@code fit} | {@code nofit} | {@code error}). */
    void filter(String outcome, long nanos);

    /** One {@code /bind} answered with {@code outcome} ({@code bound} | {@code error}). */
    void bind(String outcome, long nanos);

    /**
     * One reservation the shared state refused (another replica took the capacity first, or this replica's view
     * was stale); {@code /filter} then tries the next-best node. Records nothing by default.
     */
    default void reserveConflict() {
    }
}
