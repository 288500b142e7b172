package io.vgpu.gateway;

import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.config.EnvReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster half of the environment: Hazelcast membership (TCP-IP or Kubernetes DNS), reservations. */
class ClusterConfigTest {

    private static ClusterConfig read(String... kv) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        EnvReader reader = new EnvReader(env, GatewayConfig.PREFIX);
        ClusterConfig config = ClusterConfig.read(reader, "0.0.0.0");
        reader.finish();
        return config;
    }

    @Test
    void defaultsAreOneMember() {
        ClusterConfig c = read();

        assertThat(c.store().members()).isEmpty();
        assertThat(c.store().dnsDiscovery()).isFalse();
        assertThat(c.reservationTtl()).isEqualTo(Duration.ofSeconds(25));
        assertThat(c.quotaTicketTtl()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theQuotaTicketLifetimeIsSetAndBounded() {
        assertThat(read("VGPU_QUOTA_TICKET_TTL", "2m").quotaTicketTtl()).isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> read("VGPU_QUOTA_TICKET_TTL", "1s"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("VGPU_QUOTA_TICKET_TTL");
    }

    @Test
    void aMemberListJoinsOverTcpIp() {
        ClusterConfig c = read("VGPU_HZ_MEMBERS", "10.0.0.1:5701,10.0.0.2:5701", "VGPU_HZ_QUORUM", "2");

        assertThat(c.store().members()).containsExactly("10.0.0.1:5701", "10.0.0.2:5701");
        assertThat(c.store().quorumSize()).isEqualTo(2);
    }

    @Test
    void aDiscoveryDnsNameFindsTheMembersThroughTheHeadlessService() {
        ClusterConfig c = read("VGPU_HZ_DISCOVERY_DNS", "vgpu-gateway-hz.vgpu.svc.cluster.local");

        assertThat(c.store().dnsDiscovery()).isTrue();
        assertThat(c.store().discoveryDns()).isEqualTo("vgpu-gateway-hz.vgpu.svc.cluster.local");
        assertThat(c.store().members()).isEmpty();
    }

    @Test
    void membersAndDiscoveryTogetherStopTheStart() {
        assertThatThrownBy(() -> read("VGPU_HZ_MEMBERS", "10.0.0.1", "VGPU_HZ_DISCOVERY_DNS", "svc"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("exclusive");
    }

    /** The chaos harness's stale view is a wrapper it installs ({@link ViewFeeds}), never a setting of the gateway. */
    @Test
    void theRemovedTestOnlyDelayIsRefusedAsUnknown() {
        assertThatThrownBy(() -> read("VGPU_DEBUG_INFORMER_DELAY", "10s"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("VGPU_DEBUG_INFORMER_DELAY");
    }

    @Test
    void everyKeyIsDocumentedInTheReadme() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> missing = ClusterConfig.KEYS.stream().map(k -> k.name())
                .filter(name -> !readme.contains("`" + name + "`")).toList();

        assertThat(missing).isEmpty();
    }
}
