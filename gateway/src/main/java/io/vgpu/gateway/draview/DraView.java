package io.vgpu.gateway.draview;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.core.draview.DraLedger;
import io.vgpu.gateway.core.draview.DraSnapshot;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.state.model.ClusterState;

import java.util.SortedSet;
import java.util.concurrent.CompletionStage;

/**
 * The gateway's DRA side that is not the webhook (issue 13 items 2 and 3): the quota tickets of pods translated to
 * DRA claims, and the view of DRA-mode nodes (their ResourceSlices and the claims allocated from them) that the
 * gauges and {@code /debug/state} show beside the device-plugin nodes. Built by the composition root; {@link #start}
 * once the shared state is ready, {@link #sweep} periodically, {@link #close} at shutdown.
 */
public final class DraView implements AutoCloseable {

    private final SharedQuotaTickets tickets;
    private final TicketIngest ingest;
    private final DraLedger ledger = new DraLedger();
    private final DraInformers informers;

    /**
     * @param client  the fabric8 client (informers)
     * @param state   the shared state (the quota map)
     * @param tickets the tickets, built over the same state
     */
    public DraView(KubernetesClient client, ClusterState state, SharedQuotaTickets tickets) {
        this.tickets = tickets;
        this.ingest = new TicketIngest(state, tickets);
        this.informers = new DraInformers(client, ledger, ingest);
    }

    /** Starts the informers; the stage completes once they listed. */
    public CompletionStage<Void> start() {
        return informers.start();
    }

    /** Whether the informers have listed. */
    public boolean hasSynced() {
        return informers.hasSynced();
    }

    /** The quota tickets the webhook issues for the pods it translates. */
    public QuotaTickets tickets() {
        return tickets;
    }

    /** The DRA-mode cards and their shares now. */
    public DraSnapshot snapshot() {
        return ledger.snapshot();
    }

    /**
     * The distinct memory sizes (MiB, ascending) of the cards the ResourceSlices of driver {@code gpu.vgpu.io}
     * publish: the slice side of the webhook's {@code gpumem-percentage} translation.
     */
    public SortedSet<Long> cardMemorySizes() {
        return ledger.snapshot().cardMemorySizes();
    }

    /**
     * Counts the expired tickets granted here and, with a synced cache, releases the charges of ticketed pods whose
     * deletion this replica missed. Never blocks.
     */
    public void sweep() {
        tickets.sweep();
        if (informers.hasSynced()) {
            ingest.repair(informers.ticketNamespaces(), informers.ticketedPods());
        }
    }

    @Override
    public void close() {
        informers.close();
    }
}
