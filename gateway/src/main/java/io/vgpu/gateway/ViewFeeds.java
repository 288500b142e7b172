package io.vgpu.gateway;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How change events reach this replica's local views: its Kubernetes informer caches (and the ingest they feed)
 * and its copy of the shared state that {@code /filter} scores on. The composition root's seam for wrappers, not a
 * setting: {@code serve} always runs with {@link #DIRECT}; the chaos harness launches its stale replica through
 * {@link Main#launch(String[], ViewFeeds)} with feeds that run every event late, to prove that decisions made on a
 * stale view are refused by the shared state.
 *
 * @param informers   runs every informer event (cache update and listener call); must keep the order given
 * @param sharedState runs every change event of the shared state against the local view; must keep the order given
 */
public record ViewFeeds(Executor informers, Executor sharedState) {

    /** Every event at once, on the thread that received it (production). */
    public static final ViewFeeds DIRECT = new ViewFeeds(Runnable::run, Runnable::run);

    /** Both required. */
    public ViewFeeds {
        Objects.requireNonNull(informers, "informers");
        Objects.requireNonNull(sharedState, "sharedState");
    }
}
