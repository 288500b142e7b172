package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.GoDuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler pods as an HA set: replicas, stable member names behind a headless Service that
 * publishes not-ready addresses, Hazelcast reachable only from other scheduler pods, a disruption budget
 * that keeps quorum, spread over nodes, and a gateway container that is probed, non-root and read-only.
 */
class SchedulerWorkloadTest {

    static JsonNode sts(ValueSet set) {
        return Helm.template(set).one("StatefulSet", Names.SCHEDULER);
    }

    static JsonNode podLabels(JsonNode workload) {
        return workload.path("spec").path("template").path("metadata").path("labels");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void replicasStartTogetherUnderStableNames(ValueSet set) {
        JsonNode sts = sts(set);
        assertThat(sts.path("spec").path("replicas").asInt()).isEqualTo(set.replicas());
        assertThat(sts.path("spec").path("serviceName").asText()).isEqualTo(Names.HAZELCAST);
        assertThat(sts.path("spec").path("podManagementPolicy").asText()).isEqualTo("Parallel");
        assertThat(Pods.selects(sts.path("spec").path("selector").path("matchLabels"), podLabels(sts))).isTrue();
        assertThat(Pods.podSpec(sts).path("enableServiceLinks").asBoolean(true))
                .as("service links would inject unknown VGPU_* variables").isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void headlessServicePublishesNotReadyMembers(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode svc = r.one("Service", Names.HAZELCAST).path("spec");
        assertThat(svc.path("clusterIP").asText()).isEqualTo("None");
        assertThat(svc.path("publishNotReadyAddresses").asBoolean()).isTrue();
        assertThat(Pods.selects(svc.path("selector"), podLabels(sts(set)))).isTrue();
        JsonNode port = svc.path("ports").get(0);
        assertThat(port.path("targetPort").asText()).isEqualTo("hazelcast");
        JsonNode gateway = GatewayEnvTest.gateway(r);
        assertThat(namedPort(gateway, "hazelcast").path("containerPort").asText())
                .isEqualTo(port.path("port").asText()).isEqualTo(Pods.env(gateway).get("VGPU_HZ_PORT"));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void serviceReachesTheGatewaysApiAndMetricsPorts(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode svc = r.one("Service", Names.SCHEDULER).path("spec");
        assertThat(Pods.selects(svc.path("selector"), podLabels(sts(set)))).isTrue();
        JsonNode gateway = GatewayEnvTest.gateway(r);
        for (JsonNode port : svc.path("ports")) {
            JsonNode target = namedPort(gateway, port.path("targetPort").asText());
            String env = port.path("name").asText().equals("https") ? "VGPU_HTTP_PORT" : "VGPU_METRICS_PORT";
            assertThat(target.path("containerPort").asText()).isEqualTo(Pods.env(gateway).get(env));
        }
        assertThat(svc.path("ports")).hasSize(2);
        assertThat(svc.path("type").asText()).isEqualTo(set == ValueSet.CUSTOM ? "NodePort" : "ClusterIP");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void onlySchedulerPodsReachHazelcast(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode labels = podLabels(sts(set));
        JsonNode policy = r.one("NetworkPolicy", Names.SCHEDULER).path("spec");
        assertThat(Pods.selects(policy.path("podSelector").path("matchLabels"), labels)).isTrue();
        List<String> types = new ArrayList<>();
        policy.path("policyTypes").forEach(t -> types.add(t.asText()));
        assertThat(types).containsExactly("Ingress");
        String hz = Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_HZ_PORT");
        int rulesForHazelcast = 0;
        for (JsonNode rule : policy.path("ingress")) {
            assertThat(rule.path("ports")).as("every rule names its ports").isNotEmpty();
            if (!rule.path("ports").findValuesAsText("port").contains(hz)) {
                continue;
            }
            rulesForHazelcast++;
            assertThat(rule.path("ports")).hasSize(1);
            assertThat(rule.path("from")).hasSize(1);
            JsonNode peer = rule.path("from").get(0);
            assertThat(peer.has("namespaceSelector") || peer.has("ipBlock")).isFalse();
            assertThat(Pods.selects(peer.path("podSelector").path("matchLabels"), labels)).isTrue();
        }
        assertThat(rulesForHazelcast).isEqualTo(1);
        // the webhook/extender port is not closed by the policy
        String api = Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_HTTP_PORT");
        assertThat(policy.path("ingress").findValuesAsText("port")).contains(api);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void onlyMonitoringReachesTheMetricsPort(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode policy = r.one("NetworkPolicy", Names.SCHEDULER).path("spec");
        String metrics = Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_METRICS_PORT");
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode rule : policy.path("ingress")) {
            if (rule.path("ports").findValuesAsText("port").contains(metrics)) {
                rules.add(rule);
            }
        }
        // HAMi's gauges name every GPU pod: the port is not open to every pod of the cluster
        assertThat(rules).singleElement().satisfies(rule -> {
            assertThat(rule.path("ports")).hasSize(1);
            assertThat(rule.path("from")).hasSize(1);
            JsonNode peer = rule.path("from").get(0);
            String namespace = peer.path("namespaceSelector").path("matchLabels").path("kubernetes.io/metadata.name")
                    .asText();
            if (set == ValueSet.CUSTOM) {
                assertThat(namespace).isEqualTo("observability");
                assertThat(peer.path("podSelector").path("matchLabels").path("app.kubernetes.io/name").asText())
                        .isEqualTo("prometheus");
            } else {
                assertThat(namespace).isEqualTo("monitoring");
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void disruptionBudgetKeepsAQuorumAndSpreadIsOverNodes(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode labels = podLabels(sts(set));
        if (set.replicas() > 1) {
            JsonNode pdb = r.one("PodDisruptionBudget", Names.SCHEDULER).path("spec");
            assertThat(Pods.selects(pdb.path("selector").path("matchLabels"), labels)).isTrue();
            int quorum = Integer.parseInt(Pods.env(GatewayEnvTest.gateway(r)).get("VGPU_HZ_QUORUM"));
            assertThat(set.replicas() - pdb.path("maxUnavailable").asInt()).as("members left during a drain")
                    .isGreaterThanOrEqualTo(quorum);
        } else {
            assertThat(r.all("PodDisruptionBudget")).as("a budget for one replica would block drains").isEmpty();
        }
        JsonNode byNode = null;
        for (JsonNode c : Pods.podSpec(sts(set)).path("topologySpreadConstraints")) {
            assertThat(Pods.selects(c.path("labelSelector").path("matchLabels"), labels)).isTrue();
            if (c.path("topologyKey").asText().equals("kubernetes.io/hostname")) {
                byNode = c;
            }
        }
        assertThat(byNode).isNotNull();
        assertThat(byNode.path("whenUnsatisfiable").asText()).isEqualTo("DoNotSchedule");
        assertThat(byNode.path("maxSkew").asInt()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void gatewayIsProbedAndLockedDown(ValueSet set) {
        JsonNode sts = sts(set);
        JsonNode pod = Pods.podSpec(sts);
        JsonNode gateway = Pods.container(sts, "gateway");
        assertThat(gateway.path("args").get(0).asText()).isEqualTo("serve");
        assertProbe(gateway.path("livenessProbe"), "/healthz");
        assertProbe(gateway.path("readinessProbe"), "/readyz");
        assertProbe(gateway.path("startupProbe"), "/healthz");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext").path("runAsUser").asInt()).isPositive();
        JsonNode sc = gateway.path("securityContext");
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(sc.path("capabilities").path("drop").get(0).asText()).isEqualTo("ALL");
        assertThat(Pods.volumeAt(sts, gateway, "/tmp").has("emptyDir")).as("writable /tmp").isTrue();
        assertThat(gateway.path("resources").path("requests").path("memory").asText()).isNotEmpty();
        assertThat(gateway.path("resources").path("limits").path("memory").asText()).isNotEmpty();
        double shutdown = GoDuration.parse(Pods.env(gateway).get("VGPU_SHUTDOWN_TIMEOUT")).value().toSeconds();
        assertThat(pod.path("terminationGracePeriodSeconds").asDouble()).as("drain + preStop fit in the grace period")
                .isGreaterThan(shutdown + 5);
        for (String name : Pods.containerNames(sts)) {
            assertThat(Pods.container(sts, name).path("securityContext").path("readOnlyRootFilesystem").asBoolean())
                    .as(name).isTrue();
        }
    }

    static JsonNode namedPort(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) {
            if (name.equals(p.path("name").asText())) {
                return p;
            }
        }
        throw new AssertionError(container.path("name").asText() + " has no port named " + name);
    }

    private static void assertProbe(JsonNode probe, String path) {
        assertThat(probe.path("httpGet").path("path").asText()).isEqualTo(path);
        assertThat(probe.path("httpGet").path("scheme").asText()).isEqualTo("HTTPS");
        assertThat(probe.path("httpGet").path("port").asText()).isEqualTo("https");
    }
}
