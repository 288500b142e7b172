package io.vgpu.gateway.http;

import io.vgpu.gateway.ClusterConfig;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.config.EnvReader;

import java.util.HashMap;
import java.util.Map;

/** Test fixtures for the HTTP layer: a {@link GatewayConfig} on loopback, any free ports, plain HTTP. */
public final class TestGateway {

    private TestGateway() {
    }

    /** The test config, with {@code overrides} (KEY, value, KEY, value, …) applied to its environment. */
    /** The cluster side switched off: webhook only, /filter and /bind answer an error. */
    public static ClusterConfig withoutKubernetes() {
        EnvReader reader = new EnvReader(Map.of("VGPU_KUBERNETES", "false"), GatewayConfig.PREFIX);
        ClusterConfig cluster = ClusterConfig.read(reader, "127.0.0.1");
        reader.finish();
        return cluster;
    }

    public static GatewayConfig config(String... overrides) {
        Map<String, String> env = new HashMap<>(Map.of(
                "VGPU_PLAIN_HTTP", "true",
                "VGPU_BIND_ADDRESS", "127.0.0.1",
                "VGPU_HTTP_PORT", "0",
                "VGPU_METRICS_PORT", "0",
                "VGPU_SHUTDOWN_TIMEOUT", "5s",
                "POD_NAME", "test-replica"));
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                env.remove(overrides[i]);
            } else {
                env.put(overrides[i], overrides[i + 1]);
            }
        }
        return GatewayConfig.fromEnv(env);
    }
}
