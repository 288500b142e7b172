package io.vgpu.deploy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** helm lint --strict on every value set; value combinations the apps would not run with are refused. */
class ChartLintTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void lintsCleanly(ValueSet set) {
        List<String> args = new ArrayList<>(List.of("lint", "--strict", Repo.chart().toString(),
                "--namespace", ValueSet.NAMESPACE, "--kube-version", "1.33.0"));
        args.addAll(set.helmArgs());
        Helm.Result r = Helm.run(args, true);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("0 chart(s) failed").doesNotContain("[WARNING]").doesNotContain("[ERROR]");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValueSet.class)
    void rendersOnlyNamespacedObjectsInTheReleaseNamespace(ValueSet set) {
        Rendered r = Helm.template(set);
        List<String> clusterScoped = List.of("ClusterRole", "ClusterRoleBinding", "MutatingWebhookConfiguration", "DeviceClass");
        for (var o : r.objects()) {
            String kind = o.path("kind").asText();
            String ns = o.path("metadata").path("namespace").asText("");
            if (clusterScoped.contains(kind)) {
                assertThat(ns).as(kind + " " + o.path("metadata").path("name")).isEmpty();
            } else if (!(kind.equals("RoleBinding") && ns.equals("kube-system"))) {
                assertThat(ns).as(kind + " " + o.path("metadata").path("name")).isEqualTo(ValueSet.NAMESPACE);
            }
            assertThat(o.path("metadata").path("labels").path("app.kubernetes.io/instance").asText())
                    .as(kind + " carries the release label").isEqualTo(ValueSet.RELEASE);
        }
    }

    static Stream<Arguments> refusedValues() {
        return Stream.of(
                Arguments.of("lock wait not below the extender timeout",
                        List.of("--set", "scheduler.nodeLockRetryTimeout=30s"), "must stay below scheduler.extenderHTTPTimeout"),
                Arguments.of("lock wait in minutes above the timeout",
                        List.of("--set", "scheduler.nodeLockRetryTimeout=1m"), "must stay below scheduler.extenderHTTPTimeout"),
                Arguments.of("lock wait that is no Go duration",
                        List.of("--set", "scheduler.nodeLockRetryTimeout=20 seconds"), "is not a Go duration"),
                Arguments.of("unknown webhook failure policy",
                        List.of("--set", "scheduler.admissionWebhook.failurePolicy=Retry"), "must be Fail or Ignore"),
                Arguments.of("overwriteEnv with only vGPU pods sent to the webhook",
                        List.of("--set", "scheduler.overwriteEnv=true"), "needs every pod sent to the webhook"),
                Arguments.of("quorum above the replica count",
                        List.of("--set", "scheduler.hazelcast.quorum=4"), "is larger than scheduler.replicas"),
                Arguments.of("disruption budget that lets a drain break the quorum",
                        List.of("--set", "scheduler.hazelcast.quorum=3"), "below the quorum"),
                Arguments.of("HAMi-core host path that differs from the hook path",
                        List.of("--set", "devicePlugin.libPath=/opt/vgpu"), "must be <global.gpuHookPath>/vgpu"),
                Arguments.of("unknown member discovery",
                        List.of("--set", "scheduler.hazelcast.discovery=multicast"), "must be dns or members"),
                Arguments.of("no shard",
                        List.of("--set", "scheduler.shards=0"), "scheduler.shards must be at least 1"),
                Arguments.of("a heap size in the gateway's JVM options",
                        List.of("--set", "scheduler.extender.jvmOptions=-Xmx4g"), "scheduler.extender.jvmOptions sets the heap size"),
                Arguments.of("a heap percentage in the device plugin's JVM options",
                        List.of("--set", "devicePlugin.jvmOptions=-XX:MaxRAMPercentage=90"), "devicePlugin.jvmOptions sets the heap size"),
                Arguments.of("a heap share of the node's memory (no memory limit)",
                        List.of("--set", "scheduler.extender.resources.limits=null"), "scheduler.extender.resources.limits.memory is not set"),
                Arguments.of("a heap percentage that leaves the JVM nothing",
                        List.of("--set", "devicePlugin.heap.maxRAMPercentage=95"), "must be between 10 and 90"),
                Arguments.of("a heap size that is no JVM size",
                        List.of("--set", "scheduler.extender.heap.max=2GiB"), "is not a JVM size"),
                Arguments.of("debug state switched on without saying where",
                        List.of("--set", "scheduler.extender.debugState=on"), "must be off, api or metrics"),
                Arguments.of("debug state on the HTTPS port without client certificates",
                        List.of("--set", "scheduler.extender.debugState=api", "--set",
                                "scheduler.extender.clientAuth.insecureDisabled=true"), "which scheduler.extender.clientAuth.insecureDisabled makes anyone"),
                Arguments.of("nothing enabled",
                        List.of("--set", "scheduler.enabled=false", "--set", "devicePlugin.enabled=false"), "nothing to install"),
                Arguments.of("two node agents at once on a node",
                        List.of("--set", "devicePlugin.updateStrategy.rollingUpdate.maxSurge=1"), "maxSurge must be 0"),
                Arguments.of("DRA mode as the default without DRA",
                        List.of("--set", "devicePlugin.dra.defaultMode=dra"), "needs devicePlugin.dra.enabled=true"),
                Arguments.of("an unknown default mode",
                        List.of("--set", "devicePlugin.dra.defaultMode=both"), "must be device-plugin or dra"),
                Arguments.of("DRA mode without a privileged agent (Bidirectional mount)",
                        List.of("--set", "devicePlugin.dra.enabled=true", "--set", "devicePlugin.securityContext.privileged=false",
                                "--kube-version", "1.36.0"), "needs devicePlugin.securityContext.privileged=true"),
                Arguments.of("DRA mode before Kubernetes 1.34",
                        List.of("--set", "devicePlugin.dra.enabled=true"), "needs Kubernetes 1.34 or later"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedValues")
    void refusesValuesTheAppsCannotRunWith(String name, List<String> args, String message) {
        Helm.Result r = Helm.templateRaw(args);
        assertThat(r.exitCode()).as(name).isNotZero();
        assertThat(r.output()).contains(message);
    }

    @ParameterizedTest(name = "kube {0}")
    @ValueSource(strings = {"1.27.0", "1.25.3"})
    void refusesClustersWithoutWebhookMatchConditions(String kubeVersion) {
        Helm.Result r = Helm.run(List.of("template", "x", Repo.chart().toString(), "--kube-version", kubeVersion), true);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output()).contains("kubeVersion");
    }
}
