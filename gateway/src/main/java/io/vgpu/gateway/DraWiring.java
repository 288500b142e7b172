package io.vgpu.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.core.dra.RegisteredCardSizes;
import io.vgpu.gateway.core.port.CardSizes;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.kube.KubeApi;
import io.vgpu.gateway.kube.KubeClaimTemplates;
import io.vgpu.gateway.kube.KubeNamespaces;
import io.vgpu.gateway.kube.TemplateSweeper;
import io.vgpu.gateway.webhook.DraAdmission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The cluster side of the webhook's DRA path, built by {@link GatewayAssembly}: the namespace cache (for the
 * {@code vgpu.io/mode} label), the card sizes of the registered nodes, the ResourceClaimTemplate maker and its
 * sweeper (every {@value #SWEEP_EVERY_MINUTES} minutes, templates unused for an hour), and the quota tickets.
 */
final class DraWiring {

    private static final Logger LOG = LoggerFactory.getLogger(DraWiring.class);
    private static final long SWEEP_EVERY_MINUTES = 10;
    private static final Duration UNUSED_FOR = Duration.ofHours(1);

    private final Vertx vertx;
    private final KubeNamespaces namespaces;
    private final CardSizes cardSizes;
    private final KubeClaimTemplates templates;
    private final QuotaTickets tickets;
    private final long sweepTimer;

    private DraWiring(Vertx vertx, KubeNamespaces namespaces, CardSizes cardSizes, KubeClaimTemplates templates,
                      QuotaTickets tickets, long sweepTimer) {
        this.vertx = vertx;
        this.namespaces = namespaces;
        this.cardSizes = cardSizes;
        this.templates = templates;
        this.tickets = tickets;
        this.sweepTimer = sweepTimer;
    }

    /**
     * Builds and starts the parts.
     *
     * @param nodes   the cached nodes (card sizes of device-plugin mode)
     * @param tickets the namespace quota of translated pods; null leaves the DRA path off (logged)
     */
    static DraWiring start(Vertx vertx, KubernetesClient client, KubeApi api, Supplier<? extends Collection<NodeObservation>> nodes,
                           QuotaTickets tickets, Clock clock) {
        KubeNamespaces namespaces = new KubeNamespaces(client);
        namespaces.start().whenComplete((v, e) -> {
            if (e != null) {
                LOG.error("namespace informer did not start: {}", e.toString());
            }
        });
        KubeClaimTemplates templates = new KubeClaimTemplates(api, clock);
        TemplateSweeper sweeper = new TemplateSweeper(api, templates, clock, UNUSED_FOR);
        long timer = vertx.setPeriodic(Duration.ofMinutes(SWEEP_EVERY_MINUTES).toMillis(), id -> sweeper.sweep());
        return new DraWiring(vertx, namespaces, new RegisteredCardSizes(nodes), templates, tickets, timer);
    }

    /** Whether the namespace cache has its first list (the webhook's choice of path needs it). */
    boolean ready() {
        return namespaces.hasSynced();
    }

    /** The DRA path of the webhook, empty while no quota tickets are wired. */
    Optional<DraAdmission> admission(NvidiaConfig nvidia, DraConfig config) {
        if (tickets == null) {
            LOG.warn("the webhook's DRA path is off: no quota tickets are wired (VGPU_DRA_DEFAULT and vgpu.io/mode "
                    + "have no effect)");
            return Optional.empty();
        }
        return Optional.of(new DraAdmission(nvidia, config, namespaces, cardSizes, templates, tickets));
    }

    void close() {
        vertx.cancelTimer(sweepTimer);
        namespaces.close();
    }
}
