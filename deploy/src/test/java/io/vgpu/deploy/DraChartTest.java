package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DRA mode in the chart (issue 12 item 7): the kubelet plugin directories mounted only when
 * {@code devicePlugin.dra.enabled}, the CDI directories also with a {@code cdi-*} device list strategy, Bidirectional on the plugins directory (spec/dra-spec.md §4.6), one
 * agent per node during updates, the mode settings the agent reads, and the DeviceClass — without
 * {@code extendedResourceName} unless opted in.
 */
class DraChartTest {

    private static JsonNode plugin(ValueSet set) {
        return Pods.container(DevicePluginTest.ds(set), "device-plugin");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void mountsTheKubeletPluginAndCdiDirectoriesOnlyWithDraMode(ValueSet set) {
        JsonNode ds = DevicePluginTest.ds(set);
        Map<String, JsonNode> mounts = Pods.mounts(plugin(set));
        String registry = set == ValueSet.DRA_EXTENDED ? "/data/kubelet/plugins_registry" : "/var/lib/kubelet/plugins_registry";
        String plugins = set == ValueSet.DRA_EXTENDED ? "/data/kubelet/plugins" : "/var/lib/kubelet/plugins";
        if (!set.dra()) {
            assertThat(mounts).doesNotContainKeys(registry, plugins);
            if (cdiStrategy(set)) {
                // device-plugin mode's cdi-* strategies write their spec where the runtime reads it (issue 15 item 5)
                assertThat(Pods.volumeAt(ds, plugin(set), "/var/run/cdi").path("hostPath").path("path").asText())
                        .isEqualTo("/var/run/cdi");
            } else {
                assertThat(mounts).doesNotContainKeys("/var/run/cdi");
            }
            return;
        }
        for (String path : new String[]{registry, plugins, "/var/run/cdi"}) {
            JsonNode volume = Pods.volumeAt(ds, plugin(set), path);
            assertThat(volume.path("hostPath").path("path").asText()).as("container path = host path: " + path).isEqualTo(path);
            assertThat(volume.path("hostPath").path("type").asText()).isEqualTo("DirectoryOrCreate");
        }
        assertThat(mounts.get(plugins).path("mountPropagation").asText()).isEqualTo("Bidirectional");
        assertThat(mounts.get(registry).has("mountPropagation")).isFalse();
        assertThat(plugin(set).path("securityContext").path("privileged").asBoolean()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void pointsTheKubeletPluginAtTheDirectoriesItMounts(ValueSet set) {
        Map<String, String> env = Pods.env(plugin(set));
        Map<String, JsonNode> mounts = Pods.mounts(plugin(set));
        if (!set.dra()) {
            assertThat(env).doesNotContainKeys("VGPU_DRA_REGISTRY_DIR", "VGPU_DRA_PLUGIN_DIR");
            if (!cdiStrategy(set)) {
                assertThat(env).doesNotContainKeys("VGPU_DRA_CDI_DIR", "VGPU_DRA_STATIC_CDI_DIRS");
                return;
            }
            assertThat(mounts).containsKey(env.get("VGPU_DRA_CDI_DIR"));
            assertThat(env.get("VGPU_DRA_STATIC_CDI_DIRS").split(",")).containsExactly("/etc/cdi", env.get("VGPU_DRA_CDI_DIR"));
            return;
        }
        assertThat(mounts).containsKey(env.get("VGPU_DRA_REGISTRY_DIR"));
        String pluginDir = env.get("VGPU_DRA_PLUGIN_DIR");
        assertThat(pluginDir).endsWith("/gpu.vgpu.io");
        assertThat(mounts).containsKey(pluginDir.substring(0, pluginDir.lastIndexOf('/')));
        assertThat(mounts).containsKey(env.get("VGPU_DRA_CDI_DIR"));
        assertThat(env.get("VGPU_DRA_STATIC_CDI_DIRS").split(",")).containsExactly("/etc/cdi", env.get("VGPU_DRA_CDI_DIR"));
        assertThat(mounts.get("/etc/cdi").path("readOnly").asBoolean()).as("static specs are only read").isTrue();
    }

    /** A {@code cdi-annotations} or {@code cdi-cri} device list strategy in the set's values. */
    private static boolean cdiStrategy(ValueSet set) {
        return Pods.env(plugin(set)).getOrDefault("VGPU_DEVICE_LIST_STRATEGY", "").contains("cdi-");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void neverRunsTwoAgentsOnANodeDuringAnUpdate(ValueSet set) {
        JsonNode strategy = DevicePluginTest.ds(set).path("spec").path("updateStrategy");
        assertThat(strategy.path("type").asText()).isEqualTo("RollingUpdate");
        assertThat(strategy.path("rollingUpdate").path("maxSurge").asInt(-1)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void tellsTheAgentWhetherAndByDefaultHowToServeDra(ValueSet set) {
        Map<String, String> env = Pods.env(plugin(set));
        assertThat(env).containsEntry("VGPU_DRA_ENABLED", Boolean.toString(set.dra()))
                .containsEntry("VGPU_MODE", set == ValueSet.DRA_EXTENDED ? "dra" : "device-plugin");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void installsTheDeviceClassWithoutExtendedResourceNameUnlessOptedIn(ValueSet set) {
        Rendered r = Helm.template(set);
        if (!set.dra()) {
            assertThat(r.all("DeviceClass")).isEmpty();
            return;
        }
        JsonNode dc = r.all("DeviceClass").get(0);
        assertThat(r.all("DeviceClass")).hasSize(1);
        assertThat(dc.path("apiVersion").asText()).isEqualTo("resource.k8s.io/v1");
        assertThat(dc.path("metadata").path("name").asText()).isEqualTo(set == ValueSet.DRA ? "gpu.vgpu.io" : "vgpu");
        assertThat(dc.path("spec").path("selectors").get(0).path("cel").path("expression").asText())
                .isEqualTo("device.driver == 'gpu.vgpu.io'");
        if (set == ValueSet.DRA) {
            assertThat(dc.path("spec").has("extendedResourceName"))
                    .as("untranslated nvidia.com/gpu pods would land on DRA nodes at default capacities").isFalse();
        } else {
            assertThat(dc.path("spec").path("extendedResourceName").asText()).isEqualTo("nvidia.com/gpu");
        }
    }
}
