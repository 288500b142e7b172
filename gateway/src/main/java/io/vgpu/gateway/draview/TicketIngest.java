package io.vgpu.gateway.draview;

import io.vgpu.gateway.core.quota.QuotaTicket;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The life of a quota ticket after admission, from the informer's pods that carry one (issue 13 item 2; docs/dra.md
 * "Quota for DRA pods"):
 * <pre>
 *  ticket (deadline) ──pod seen, live──────► the pod's charge: same key, same amounts, no deadline (one atomic
 *        │                                    processor: never counted twice, never absent in between)
 *        └──deadline, no pod──► dropped by the shared state's sweep
 *  pod's charge ──pod Succeeded/Failed or deleted──► released
 * </pre>
 * A pod translated to DRA carries no {@code hami.io/vgpu-devices-allocated}, so its charge is what it was admitted
 * with (the ticket's amounts as the shared state holds them: a pod whose annotation was edited afterwards cannot
 * lower its charge), held from admission until the pod ends. A claim deallocated while its pod lives (the
 * scheduler undoing a failed binding) keeps the charge: the pod will be allocated again.
 *
 * <p>Writes only for namespaces whose quota key this replica owns (every replica sees every pod: N replicas do not
 * write N times); every replica tells its {@link SharedQuotaTickets} that the pod showed. Calls are serial.
 */
final class TicketIngest {

    private static final Logger LOG = LoggerFactory.getLogger(TicketIngest.class);

    private final ClusterState state;
    private final SharedQuotaTickets tickets;

    TicketIngest(ClusterState state, SharedQuotaTickets tickets) {
        this.state = state;
        this.tickets = tickets;
    }

    /** A ticketed pod was added or changed. */
    void upsert(TicketedPod pod) {
        QuotaTicket ticket = pod.ticket();
        tickets.seen(ticket);
        String ns = pod.namespace();
        if (!state.ownsNode(ns)) {
            return;
        }
        if (pod.finished()) {
            log("release the quota ticket of " + ns + "/" + pod.name(), state.releaseQuota(ns, ticket.chargeKey()));
            return;
        }
        QuotaState quota = state.quota(ns);
        QuotaCharge held = quota == null ? null : quota.charge(ticket.chargeKey());
        if (held != null && held.isBound()) {
            return; // already the pod's charge: pod updates cost no round trip
        }
        // the shared state's amounts win over the annotation's; the annotation's serve once the ticket expired
        long mem = held != null ? held.mem() : ticket.memoryMiB();
        long cores = held != null ? held.cores() : ticket.cores();
        log("charge the quota ticket of " + ns + "/" + pod.name(), state.observeQuota(ns, ticket.chargeKey(), mem,
                cores));
    }

    /** A ticketed pod was deleted (or left the informer's view). */
    void deleted(TicketedPod lastKnown) {
        if (state.ownsNode(lastKnown.namespace())) {
            log("release the quota ticket of " + lastKnown.namespace() + "/" + lastKnown.name(),
                    state.releaseQuota(lastKnown.namespace(), lastKnown.ticket().chargeKey()));
        }
    }

    /**
     * The safety net for a delete this replica missed (it became the namespace's owner meanwhile): releases every
     * pod charge of a ticket in {@code namespaces} whose pod is not among {@code live}. Call it only with a synced
     * cache. Tickets still waiting for their pod are left to their deadline.
     */
    void repair(Collection<String> namespaces, Collection<TicketedPod> live) {
        Set<String> held = new HashSet<>();
        live.forEach(p -> held.add(p.namespace() + "\n" + p.ticket().chargeKey()));
        for (String ns : namespaces) {
            QuotaState quota = state.quota(ns);
            if (quota == null || !state.ownsNode(ns)) {
                continue;
            }
            for (Map.Entry<String, QuotaCharge> e : quota.charges().entrySet()) {
                if (QuotaTicket.isTicketKey(e.getKey()) && e.getValue().isBound()
                        && !held.contains(ns + "\n" + e.getKey())) {
                    log("release the quota ticket " + e.getKey() + " of a vanished pod in " + ns,
                            state.releaseQuota(ns, e.getKey()));
                }
            }
        }
    }

    private static void log(String what, CompletionStage<?> stage) {
        stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("quota tickets: {} failed: {}", what, e.toString());
            }
        });
    }
}
