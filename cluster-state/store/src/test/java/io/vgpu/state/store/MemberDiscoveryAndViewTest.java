package io.vgpu.state.store;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.vgpu.state.model.ReserveOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.vgpu.state.store.StoreFixtures.eventually;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kubernetes DNS discovery of the members, and the test-only delayed view of a stale replica. */
@Timeout(90)
class MemberDiscoveryAndViewTest {

    @Test
    void aDiscoveryDnsNameReplacesTheMemberListWithKubernetesDnsLookup() {
        StoreConfig store = new StoreConfig("c", List.of(), "", 5701, 1, 2, 0, "vgpu-hz.vgpu.svc.cluster.local", 0);

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
        assertThatThrownBy(() -> new StoreConfig("c", List.of("10.0.0.1"), "", 5701, 1, 0, 0, "svc", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
        assertThatThrownBy(() -> new StoreConfig("c", List.of(), "", 5701, 1, 0, 0, "", -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theViewDelayTravelsInTheMemberConfigOnlyWhenSet() {
        Config plain = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 1, 0, 0));
        Config delayed = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 1, 0, 0, "", 1500));

        assertThat(plain.getProperty(HazelcastMemberConfig.VIEW_DELAY_PROPERTY)).isNull();
        assertThat(delayed.getProperty(HazelcastMemberConfig.VIEW_DELAY_PROPERTY)).isEqualTo("1500");
    }

    @Test
    void withBackupsAChangeCountsOnlyOnceItsBackupHasIt() {
        Config withBackup = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 1, 0, 0));
        Config without = HazelcastMemberConfig.build(new StoreConfig("c", List.of(), "", 5701, 0, 0, 0));

        assertThat(withBackup.getProperty(HazelcastMemberConfig.FAIL_ON_INDETERMINATE)).isEqualTo("true");
        assertThat(without.getProperty(HazelcastMemberConfig.FAIL_ON_INDETERMINATE)).isNull();
    }

    /** "localhost" stands in for the headless Service: its A record is where the first member listens. */
    @Test
    void membersFoundThroughDnsFormOneCluster() {
        int port = freePort();
        StoreConfig store = new StoreConfig("vgpu-dns-" + UUID.randomUUID(), List.of(), "127.0.0.1", port, 1, 0, 7,
                "localhost", 0);
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

    @Test
    void aReplicaWithAStaleViewSeesChangesLateAndItsStaleReservationsAreRefused() {
        StoreConfig fresh = StoreFixtures.clusterOf(2, 1, 0);
        StoreConfig stale = new StoreConfig(fresh.clusterName(), fresh.members(), fresh.bindAddress(), fresh.port(),
                fresh.backupCount(), fresh.quorumSize(), fresh.partitionCount(), "", 1_500);
        List<HazelcastClusterState> replicas = new ArrayList<>();
        try {
            replicas.add(StoreFixtures.startOne(fresh));
            replicas.add(StoreFixtures.startOne(stale));
            StoreFixtures.awaitFormed(replicas);
            HazelcastClusterState current = replicas.get(0);
            HazelcastClusterState lagging = replicas.get(1);
            join(current.registerNode(inventory("n1", gpu("g0", 10, 8000))));
            eventually(Duration.ofSeconds(10), () -> assertThat(lagging.node("n1")).isNotNull());

            assertThat(join(current.reserve("n1", pod("a"), slice("g0", 6000), 0, Long.MAX_VALUE)).isReserved())
                    .isTrue();

            // the lagging replica still sees an idle card: deciding on it, it would over-commit ...
            assertThat(lagging.nodeState("n1").charges()).isEmpty();
            // ... but the processor re-checks the authoritative value
            assertThat(join(lagging.reserve("n1", pod("b"), slice("g0", 6000), 0, Long.MAX_VALUE)))
                    .isEqualTo(new ReserveOutcome.Refused());
            eventually(Duration.ofSeconds(10), () ->
                    assertThat(lagging.nodeState("n1").charges()).containsOnlyKeys("a"));
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            int port = socket.getLocalPort();
            return port > 60000 ? port - 5000 : port;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
