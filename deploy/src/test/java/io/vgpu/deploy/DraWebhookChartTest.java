package io.vgpu.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook's DRA path in the chart (issue 13 items 1 and 5): with DRA mode the gateway is told the cluster default
 * ({@code scheduler.admissionWebhook.draByDefault}) and the DeviceClass its claims name (the one the chart installs);
 * without it, neither (the gateway's defaults keep every pod on the HAMi path); a DRA default without DRA mode is
 * refused.
 */
class DraWebhookChartTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void tellsTheGatewayTheDraDefaultAndTheDeviceClassOnlyWithDraMode(ValueSet set) {
        Rendered r = Helm.template(set);
        Map<String, String> env = Pods.env(GatewayEnvTest.gateway(r));
        if (!set.dra()) {
            assertThat(env).doesNotContainKeys("VGPU_DRA_DEFAULT", "VGPU_DRA_DEVICE_CLASS");
            return;
        }
        assertThat(env).containsEntry("VGPU_DRA_DEFAULT", "false");
        String installed = r.all("DeviceClass").get(0).path("metadata").path("name").asText();
        assertThat(env).containsEntry("VGPU_DRA_DEVICE_CLASS", installed);
    }

    @Test
    void draByDefaultReachesTheGateway() {
        List<String> args = new java.util.ArrayList<>(ValueSet.DRA.helmArgs());
        args.addAll(List.of("--set", "scheduler.admissionWebhook.draByDefault=true"));
        Helm.Result r = Helm.templateRaw(args);
        assertThat(r.exitCode()).as(r.output()).isZero();
        Rendered rendered = new Rendered(Helm.parse(r.output()));
        assertThat(Pods.env(GatewayEnvTest.gateway(rendered))).containsEntry("VGPU_DRA_DEFAULT", "true");
    }

    @Test
    void draByDefaultWithoutDraModeIsRefused() {
        Helm.Result r = Helm.run(List.of("template", ValueSet.RELEASE, Repo.chart().toString(), "--namespace",
                ValueSet.NAMESPACE, "--set", "scheduler.admissionWebhook.draByDefault=true"), true);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output()).contains("scheduler.admissionWebhook.draByDefault=true needs devicePlugin.dra.enabled=true");
    }
}
