package io.vgpu.state.store;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.testsupport.HeldExecutor;
import io.vgpu.testsupport.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kubernetes DNS discovery of the members, and a replica whose view lags (its view feed holds the events). */
@Timeout(90)
class MemberDiscoveryAndViewTest {

    @Test
    void aDiscoveryDnsNameReplacesTheMemberListWithKubernetesDnsLookup() {
        StoreConfig store = new StoreConfig("c", List.of(), "", 5701, 1, 2, 0, "vgpu-hz.vgpu.svc.cluster.local");

        JoinConfig join = HazelcastMemberConfig.build(store).getNetworkConfig().getJoin();

        assertThat(join.getTcpIpConfig().isEnabled()).isFalse();
        assertThat(join.getMulticastConfig().isEnabled()).isFalse();
        assertThat(join.getKubernetesConfig().isEnabled()).isTrue();
        assertThat(join.getKubernetesConfig().getProperty(HazelcastMemberConfig.DNS_SERVICE))
                .isEqualTo("vgpu-hz.vgpu.svc.cluster.local");
        assertThat(join.getKubernetesConfig().getProperty(HazelcastMemberConfig.DNS_PORT)).isEqualTo("5701");
    }

    @Test
    void aMemberListAndADiscoveryNameTogetherAreRefused() {
        assertThatThrownBy(() -> new StoreConfig("c", List.of("10.0.0.1"), "", 5701, 1, 0, 0, "svc"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
    }

    @Test
    void withBackupsAChangeCountsOnlyOnceItsBackupHasIt() {
        Config withBackup = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 1, 0, 0));
        Config without = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 0, 0, 0));

        assertThat(withBackup.getProperty(HazelcastMemberConfig.FAIL_ON_INDETERMINATE)).isEqualTo("true");
        assertThat(without.getProperty(HazelcastMemberConfig.FAIL_ON_INDETERMINATE)).isNull();
    }

    @Test
    void hazelcastsOwnMetricsCollectionIsOffUnlessTheOperatorTurnsItOn() {
        Config config = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 1, 0, 0));

        assertThat(config.getMetricsConfig().isEnabled()).isFalse();
    }

    /** "localhost" stands in for the headless Service: its A record is where the first member listens. */
    @Test
    void membersFoundThroughDnsFormOneCluster() {
        int port = Ports.free();
        StoreConfig store = new StoreConfig("vgpu-dns-" + UUID.randomUUID(), List.of(), "127.0.0.1", port, 1, 0, 7,
                "localhost");
        List<HazelcastClusterState> members = new ArrayList<>();
        try {
            members.add(StoreFixtures.startOne(store));
            members.add(StoreFixtures.startOne(store));

            StoreFixtures.awaitFormed(members);

            assertThat(members.get(1).member().getCluster().getMembers()).hasSize(2);
        } finally {
            StoreFixtures.terminate(members);
        }
    }

    /**
     * A replica whose view feed holds the change events (the seam the chaos harness's stale replica uses) decides on
     * a view that lags; the entry processors refuse what that view would over-commit.
     */
    @Test
    void aReplicaWithAStaleViewSeesChangesLateAndItsStaleReservationsAreRefused() {
        StoreConfig store = StoreFixtures.clusterOf(2, 1, 0);
        HeldExecutor feed = new HeldExecutor();
        List<HazelcastClusterState> replicas = new ArrayList<>();
        try {
            replicas.add(StoreFixtures.startOne(store));
            replicas.add(HazelcastClusterState.start(StoreFixtures.memberConfig(store), feed));
            StoreFixtures.awaitFormed(replicas);
            HazelcastClusterState current = replicas.get(0);
            HazelcastClusterState lagging = replicas.get(1);
            join(current.registerNode(inventory("n1", gpu("g0", 10, 8000))));
            passes(Duration.ofSeconds(10), () -> assertThat(feed.held()).isPositive());
            assertThat(lagging.node("n1")).as("not before its feed runs the event").isNull();
            passes(Duration.ofSeconds(10), () -> {
                feed.runHeld();
                assertThat(lagging.node("n1")).isNotNull();
            });

            assertThat(join(current.reserve("n1", pod("a"), slice("g0", 6000), 0, Long.MAX_VALUE)).isReserved())
                    .isTrue();
            passes(Duration.ofSeconds(10), () -> assertThat(feed.held()).isPositive());

            // the lagging replica still sees an idle card: deciding on it, it would over-commit ...
            assertThat(lagging.node("n1").devices().get(0).usedmem()).isZero();
            // ... but the processor re-checks the authoritative value
            assertThat(join(lagging.reserve("n1", pod("b"), slice("g0", 6000), 0, Long.MAX_VALUE)))
                    .isEqualTo(new ReserveOutcome.Refused());
            feed.runHeld();
            assertThat(lagging.node("n1").devices().get(0).usedmem()).isEqualTo(6000);
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

}
