package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vgpu.gateway.scheduling.BindSteps.Attempt;
import io.vgpu.gateway.scheduling.BindSteps.Step;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.vgpu.gateway.scheduling.BindSteps.done;

/**
 * {@link BindService}'s refusals of a lookup that knows too little to act on: nothing is changed, since the pod or
 * the node may well exist. No Event: they pass. They log under {@code BindService}'s logger.
 */
final class UnchangedRefusals {

    private static final Logger LOG = LoggerFactory.getLogger(BindService.class);

    private UnchangedRefusals() {
    }

    /**
     * The cache has not seen the pod and the live read got no answer (rate limit, overload, a timeout). A replica whose
     * cache lags (just started, a slow watch) reads every pod it binds live, so under load this is not rare: taken
     * for a missing pod, it dropped the pod's charge, and a second bind of a pod bound a moment before dropped its
     * binding (docs/reliability.md, the single-kill over-commit of 2026-12-07).
     */
    static Future<Step> unread(Attempt attempt, String why) {
        BindRequest request = attempt.request();
        return refuse(attempt, DecisionFailure.POD_UNREADABLE, "pod " + request.qualified() + " could not be read (the "
                + "informer cache has not seen it, and the API server did not answer: " + why + "); nothing changed");
    }

    /**
     * The node is not in the cache, and the cache has not synced (a replica just started, or one whose watches fell
     * behind). The pod's reservation stays for the bind kube-scheduler makes next (through any replica). Dropping it,
     * as a synced cache's answer does, cost a started replica one re-filter per bind (644 in the soak of 2026-12-07,
     * 1,727 in the one of stop 30, docs/reliability.md).
     */
    static Future<Step> notSynced(Attempt attempt) {
        return refuse(attempt, DecisionFailure.CACHE_NOT_SYNCED, "node \"" + attempt.request().node() + "\" is not in "
                + "this replica's informer cache, which has not synced yet; nothing changed");
    }

    private static Future<Step> refuse(Attempt attempt, DecisionFailure cause, String message) {
        LOG.warn("bind {} to {}: {}", attempt.request().pod(), attempt.request().node(), message);
        return done(attempt, cause, message, null);
    }
}
