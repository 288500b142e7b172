package io.vgpu.state.store;

import com.hazelcast.config.CompactSerializationConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.spi.merge.PutIfAbsentMergePolicy;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionOn;

/**
 * Builds the embedded member's Hazelcast {@link Config} in code from a {@link StoreConfig} (no XML/YAML, no
 * environment lookups by Hazelcast): TCP-IP join from the member list, or Kubernetes DNS discovery of a headless
 * Service (multicast and auto-detection off either way), phone-home off, Hazelcast's own metrics collection off
 * (see {@link #build}), Hazelcast's own shutdown hook off (the application leaves gracefully through
 * {@link HazelcastClusterState#shutdown()} after draining), the explicit Compact serializers, the five maps, and,
 * with backups, changes that fail unless their backup acknowledged them (so a member cut off from the others can
 * never report an allocation the majority does not have, even before the split is detected).
 */
public final class HazelcastMemberConfig {

    /** {@code IMap<nodeName, NodeState>}: one key per node. */
    public static final String NODE_MAP = "vgpu-nodes";
    /**
     * {@code IMap<nodeName, NodeSummary>}: each node's usage summary, republished by the node key's owner after each
     * change; every replica's view listens to it (same key, so the same partition as the node's entry).
     */
    public static final String SUMMARY_MAP = "vgpu-node-summaries";
    /**
     * {@code IMap<nodeName, NodeFacts>}: each node's registration facts, republished by the node key's owner only when
     * they change; every replica's view listens to it and joins it with the node's summary (same key, same partition).
     */
    public static final String INVENTORY_MAP = "vgpu-node-inventory";
    /** {@code IMap<namespace, QuotaState>}: one key per namespace. */
    public static final String QUOTA_MAP = "vgpu-quotas";
    /** {@code IMap<podUid, nodeName>}: where each pod's charge is, to release it after a re-filter. */
    public static final String POD_INDEX_MAP = "vgpu-pod-index";
    /** Name of the split-brain protection applied to the five maps when {@link StoreConfig#quorumEnabled()}. */
    public static final String QUORUM = "vgpu-quorum";

    /** Hazelcast property: an operation whose synchronous backups did not acknowledge fails instead of succeeding. */
    static final String FAIL_ON_INDETERMINATE = "hazelcast.operation.fail.on.indeterminate.state";

    /** Hazelcast Kubernetes discovery property names (DNS-lookup mode). */
    static final String DNS_SERVICE = "service-dns";
    static final String DNS_PORT = "service-port";
    static final String DNS_TIMEOUT = "service-dns-timeout";
    private static final int DNS_TIMEOUT_SECONDS = 5;
    /** How soon after start, and then how often, the master looks for other clusters of the same name to merge. */
    static final int MERGE_CHECK_SECONDS = 10;

    private HazelcastMemberConfig() {
    }

    /**
     * @param store the replica's store settings
     * @return a new member configuration; callers may still adjust it (tests shorten join waits) before starting
     */
    public static Config build(StoreConfig store) {
        Config config = new Config();
        config.setClusterName(store.clusterName());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // Hazelcast's own metrics feed Management Center and JMX, neither of which the gateway uses (its /metrics is
        // Micrometer's); their collection was 5-7.5 % of a warm replica's samples (docs/benchmarks.md). An operator
        // who runs Management Center turns it back on with -Dhazelcast.metrics.enabled=true, which overrides this
        config.getMetricsConfig().setEnabled(false);
        // replicas that start at the same moment (a rollout, a restart of all of them) can each form a cluster of
        // their own before they see each other; Hazelcast merges clusters only after 300 s by default, and under the
        // quorum the smaller ones stay not ready (and the larger one under-replicated) until then
        config.setProperty(ClusterProperty.MERGE_FIRST_RUN_DELAY_SECONDS.getName(),
                Integer.toString(MERGE_CHECK_SECONDS));
        config.setProperty(ClusterProperty.MERGE_NEXT_RUN_DELAY_SECONDS.getName(),
                Integer.toString(MERGE_CHECK_SECONDS));
        if (store.partitionCount() > 0) {
            config.setProperty("hazelcast.partition.count", Integer.toString(store.partitionCount()));
        }
        if (store.backupCount() > 0) {
            // a change counts only once its backup has it: without this, a member cut off from its peers still
            // acknowledges changes (after the backup timeout) that the majority, promoting its backups, never sees
            config.setProperty(FAIL_ON_INDETERMINATE, "true");
        }
        network(config.getNetworkConfig(), store);
        if (!store.bindAddress().isEmpty()) {
            config.setProperty("hazelcast.socket.bind.any", "false");
        }
        if (store.quorumEnabled()) {
            config.addSplitBrainProtectionConfig(new SplitBrainProtectionConfig(QUORUM, true, store.quorumSize())
                    .setProtectOn(SplitBrainProtectionOn.READ_WRITE));
        }
        config.addMapConfig(map(NODE_MAP, store, InMemoryFormat.OBJECT));
        config.addMapConfig(map(QUOTA_MAP, store, InMemoryFormat.OBJECT));
        // OBJECT matters for the fan-out: Hazelcast leaves the old value out of the update events of an OBJECT map
        // written by an entry processor, so a replica receives only the new summary (BINARY would send both)
        config.addMapConfig(map(SUMMARY_MAP, store, InMemoryFormat.OBJECT));
        config.addMapConfig(map(INVENTORY_MAP, store, InMemoryFormat.OBJECT));
        config.addMapConfig(map(POD_INDEX_MAP, store, InMemoryFormat.BINARY));
        registerSerializers(config.getSerializationConfig().getCompactSerializationConfig());
        return config;
    }

    /** Adds every value, outcome and processor serializer of the store. */
    static void registerSerializers(CompactSerializationConfig compact) {
        for (CompactSerializer<?> s : ValueSerializers.all()) {
            compact.addSerializer(s);
        }
        for (CompactSerializer<?> s : ProcessorSerializers.all()) {
            compact.addSerializer(s);
        }
    }

    private static void network(NetworkConfig network, StoreConfig store) {
        network.setPort(store.port()).setPortAutoIncrement(true);
        if (!store.bindAddress().isEmpty()) {
            network.getInterfaces().setEnabled(true).addInterface(store.bindAddress());
        }
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (store.dnsDiscovery()) {
            // Hazelcast's built-in Kubernetes discovery, DNS-lookup mode: no API access or RBAC needed; the headless
            // Service must publish not-ready addresses so that starting replicas find each other (DESIGN.md §3)
            join.getTcpIpConfig().setEnabled(false);
            join.getKubernetesConfig().setEnabled(true)
                    .setProperty(DNS_SERVICE, store.discoveryDns())
                    .setProperty(DNS_PORT, Integer.toString(store.port()))
                    .setProperty(DNS_TIMEOUT, Integer.toString(DNS_TIMEOUT_SECONDS));
        } else {
            join.getTcpIpConfig().setEnabled(true).setMembers(store.members());
        }
    }

    /**
     * Node and quota values are held deserialized ({@code OBJECT}): every change is an entry processor, which then
     * works on the immutable value without a deserialization per call. Merging after a split brain keeps what the
     * majority side has ({@code PutIfAbsent}): with the quorum on, the minority side never wrote.
     */
    private static MapConfig map(String name, StoreConfig store, InMemoryFormat format) {
        MapConfig map = new MapConfig(name)
                .setBackupCount(store.backupCount())
                .setAsyncBackupCount(0)
                .setInMemoryFormat(format)
                .setMergePolicyConfig(new MergePolicyConfig(PutIfAbsentMergePolicy.class.getName(),
                        MergePolicyConfig.DEFAULT_BATCH_SIZE));
        if (store.quorumEnabled()) {
            map.setSplitBrainProtectionName(QUORUM);
        }
        return map;
    }
}
