package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigKey;
import io.vgpu.gateway.config.EnvReader;
import io.vgpu.gateway.config.Parsers;
import io.vgpu.gateway.draview.SharedQuotaTickets;
import io.vgpu.state.store.StoreConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How the gateway reaches the cluster: the Kubernetes API and the Hazelcast store its replicas share.
 * Read from the same environment as {@link GatewayConfig} ({@code VGPU_} prefix).
 *
 * @param kubernetes      {@code VGPU_KUBERNETES}: false runs only the webhook (no informers, /filter and /bind
 *                        answer an error), for local use without a cluster
 * @param kubeconfig      {@code VGPU_KUBECONFIG}: kubeconfig file; unset = fabric8's usual resolution
 *                        ({@code KUBECONFIG}, {@code ~/.kube/config}, in-cluster service account)
 * @param store           the Hazelcast member: {@code VGPU_HZ_CLUSTER_NAME}, {@code VGPU_HZ_MEMBERS},
 *                        {@code VGPU_HZ_PORT}, {@code VGPU_HZ_BACKUP_COUNT}, {@code VGPU_HZ_QUORUM}
 * @param reservationTtl  {@code VGPU_RESERVATION_TTL}: how long a filter reservation waits for its bind
 * @param quotaTicketTtl  {@code VGPU_QUOTA_TICKET_TTL}: how long a DRA pod's quota ticket waits for its pod
 */
public record ClusterConfig(boolean kubernetes, Path kubeconfig, StoreConfig store, Duration reservationTtl,
                            Duration quotaTicketTtl) {

    /** With the default quota ticket lifetime (for embedders that do not read the environment). */
    public ClusterConfig(boolean kubernetes, Path kubeconfig, StoreConfig store, Duration reservationTtl) {
        this(kubernetes, kubeconfig, store, reservationTtl, SharedQuotaTickets.DEFAULT_TTL);
    }

    /** Kubernetes on or off. */
    public static final ConfigKey<Boolean> KUBERNETES = ConfigKey.optional("VGPU_KUBERNETES", Parsers.bool(), "true",
            "connect to Kubernetes (false: webhook only, for local runs)");
    /** Kubeconfig file. */
    public static final ConfigKey<Path> KUBECONFIG = ConfigKey.optional("VGPU_KUBECONFIG", Parsers.readableFile(),
            null, "kubeconfig file (default: KUBECONFIG, ~/.kube/config, then in-cluster)");
    /** Hazelcast cluster name. */
    public static final ConfigKey<String> HZ_CLUSTER_NAME = ConfigKey.optional("VGPU_HZ_CLUSTER_NAME", Parsers.text(),
            "vgpu-gateway", "Hazelcast cluster name shared by the replicas");
    /** Hazelcast members. */
    public static final ConfigKey<List<String>> HZ_MEMBERS = ConfigKey.optional("VGPU_HZ_MEMBERS", Parsers.names(),
            null, "host[:port] of the other replicas' members (TCP-IP join); unset = a single member");
    /** Kubernetes DNS discovery of the members. */
    public static final ConfigKey<String> HZ_DISCOVERY_DNS = ConfigKey.optional("VGPU_HZ_DISCOVERY_DNS",
            Parsers.text(), null, "DNS name of the headless Service of the replicas' Hazelcast port (Kubernetes DNS "
                    + "discovery; publishNotReadyAddresses: true); instead of VGPU_HZ_MEMBERS");
    /** Hazelcast port. */
    public static final ConfigKey<Integer> HZ_PORT = ConfigKey.optional("VGPU_HZ_PORT", Parsers.integer(1, 65_535),
            "5701", "Hazelcast member port");
    /** Backup count. */
    public static final ConfigKey<Integer> HZ_BACKUP_COUNT = ConfigKey.optional("VGPU_HZ_BACKUP_COUNT",
            Parsers.integer(0, 6), "1", "synchronous backups of every node entry");
    /** Quorum. */
    public static final ConfigKey<Integer> HZ_QUORUM = ConfigKey.optional("VGPU_HZ_QUORUM", Parsers.integer(0, 255),
            "0", "split-brain protection: members needed to allocate (0 = off; use floor(N/2)+1)");
    /** Reservation lifetime. */
    public static final ConfigKey<Duration> RESERVATION_TTL = ConfigKey.optional("VGPU_RESERVATION_TTL",
            Parsers.duration(Duration.ofSeconds(1), Duration.ofMinutes(5)), "25s",
            "how long a filter reservation lives without a bind (keep below kube-scheduler's 30s)");
    /** Quota ticket lifetime. */
    public static final ConfigKey<Duration> QUOTA_TICKET_TTL = ConfigKey.optional("VGPU_QUOTA_TICKET_TTL",
            Parsers.duration(Duration.ofSeconds(5), Duration.ofMinutes(10)), "60s",
            "how long the quota reserved at admission for a pod translated to DRA claims waits for the pod to show");

    /** Every key, in documentation order. */
    public static final List<ConfigKey<?>> KEYS = List.of(KUBERNETES, KUBECONFIG, HZ_CLUSTER_NAME, HZ_MEMBERS,
            HZ_DISCOVERY_DNS, HZ_PORT, HZ_BACKUP_COUNT, HZ_QUORUM, RESERVATION_TTL, QUOTA_TICKET_TTL);

    /**
     * Reads the keys; problems are recorded in {@code reader}.
     *
     * @param bindAddress the address the member binds to (the API's, unless 0.0.0.0)
     * @return the configuration, or null when a problem was recorded
     */
    public static ClusterConfig read(EnvReader reader, String bindAddress) {
        Boolean kube = reader.get(KUBERNETES);
        Path kubeconfig = reader.get(KUBECONFIG);
        String name = reader.get(HZ_CLUSTER_NAME);
        List<String> members = reader.get(HZ_MEMBERS);
        String dns = reader.get(HZ_DISCOVERY_DNS);
        Integer port = reader.get(HZ_PORT);
        Integer backups = reader.get(HZ_BACKUP_COUNT);
        Integer quorum = reader.get(HZ_QUORUM);
        Duration ttl = reader.get(RESERVATION_TTL);
        Duration ticketTtl = reader.get(QUOTA_TICKET_TTL);
        if (members != null && !members.isEmpty() && dns != null) {
            reader.problem(HZ_MEMBERS.name() + " and " + HZ_DISCOVERY_DNS.name() + " are exclusive: set one");
        }
        if (reader.hasProblems()) {
            return null;
        }
        String address = "0.0.0.0".equals(bindAddress) ? "" : bindAddress;
        return new ClusterConfig(kube, kubeconfig, new StoreConfig(name, members == null ? List.of() : members,
                address, port, backups, quorum, 0, dns == null ? "" : dns), ttl, ticketTtl);
    }
}
