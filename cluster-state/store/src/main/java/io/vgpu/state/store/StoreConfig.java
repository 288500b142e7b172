package io.vgpu.state.store;

import java.util.List;
import java.util.Objects;

/**
 * How the embedded Hazelcast member of one replica is configured. Multicast and auto-detection are always off
 * and phone-home is disabled; members find each other only through {@code members} (TCP-IP join).
 *
 * @param clusterName   Hazelcast cluster name: replicas with another name never join
 * @param members       TCP-IP member list ({@code host} or {@code host:port}; Hazelcast also accepts an IPv4 last-octet
 *                      range such as {@code 10.0.0.1-7}); empty: a cluster of one
 * @param bindAddress   the local interface to bind and publish (e.g. {@code 127.0.0.1}); "" lets Hazelcast choose
 * @param port          first port to try; the next ones are tried when it is taken
 * @param backupCount   synchronous backups of every node and quota entry (≥ 1 once there are several replicas)
 * @param quorumSize    split-brain protection: the minimum number of members (⌊N/2⌋+1) for reads and writes of
 *                      the node and quota maps; 0 or 1 disables it
 * @param partitionCount Hazelcast partition count; 0 keeps Hazelcast's default (271). Few partitions make tests
 *                      fast
 * @param discoveryDns  Kubernetes DNS discovery: the DNS name of a headless Service whose A records are the
 *                      members (Hazelcast's built-in Kubernetes discovery in DNS-lookup mode, members on
 *                      {@code port}); "" uses the TCP-IP {@code members} list instead. Not both.
 */
public record StoreConfig(String clusterName, List<String> members, String bindAddress, int port, int backupCount,
                          int quorumSize, int partitionCount, String discoveryDns) {

    /** The Hazelcast default member port. */
    public static final int DEFAULT_PORT = 5701;

    /** Validates ranges; copies the member list; null address becomes "". */
    public StoreConfig {
        Objects.requireNonNull(clusterName, "clusterName");
        if (clusterName.isBlank()) {
            throw new IllegalArgumentException("cluster name must not be blank");
        }
        members = members == null ? List.of() : List.copyOf(members);
        bindAddress = bindAddress == null ? "" : bindAddress.trim();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (backupCount < 0 || backupCount > 6) {
            throw new IllegalArgumentException("backup count must be 0..6: " + backupCount);
        }
        if (quorumSize < 0) {
            throw new IllegalArgumentException("quorum size must not be negative: " + quorumSize);
        }
        if (partitionCount < 0) {
            throw new IllegalArgumentException("partition count must not be negative: " + partitionCount);
        }
        discoveryDns = discoveryDns == null ? "" : discoveryDns.trim();
        if (!discoveryDns.isEmpty() && !members.isEmpty()) {
            throw new IllegalArgumentException("give either a member list or a discovery DNS name, not both");
        }
    }

    /** TCP-IP join from {@code members}, no DNS discovery. */
    public StoreConfig(String clusterName, List<String> members, String bindAddress, int port, int backupCount,
                       int quorumSize, int partitionCount) {
        this(clusterName, members, bindAddress, port, backupCount, quorumSize, partitionCount, "");
    }

    /** A single-member store on the default port: cluster {@code vgpu}, one backup, no quorum. */
    public static StoreConfig singleMember(String clusterName) {
        return new StoreConfig(clusterName, List.of(), "", DEFAULT_PORT, 1, 0, 0);
    }

    /** Returns true when members are found through Kubernetes DNS rather than the member list. */
    public boolean dnsDiscovery() {
        return !discoveryDns.isEmpty();
    }

    /** Returns true when split-brain protection is on. */
    public boolean quorumEnabled() {
        return quorumSize > 1;
    }
}
