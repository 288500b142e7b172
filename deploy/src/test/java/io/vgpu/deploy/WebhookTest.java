package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MutatingWebhookConfiguration: pod CREATE only, the configured failure policy, selectors that keep
 * out ignored objects, kube-system and the release namespace, and matchConditions that send only pods
 * asking for a vGPU resource.
 */
class WebhookTest {

    static JsonNode webhook(Rendered r) {
        JsonNode config = r.one("MutatingWebhookConfiguration", Names.WEBHOOK);
        assertThat(config.path("webhooks")).hasSize(1);
        return config.path("webhooks").get(0);
    }

    /** The values of the {@code key NotIn [...]} expression of a selector. */
    static List<String> notIn(JsonNode selector, String key) {
        List<String> values = new ArrayList<>();
        for (JsonNode e : selector.path("matchExpressions")) {
            if (key.equals(e.path("key").asText()) && "NotIn".equals(e.path("operator").asText())) {
                e.path("values").forEach(v -> values.add(v.asText()));
            }
        }
        return values;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void mutatesPodCreationsThroughTheGatewayService(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode w = webhook(r);
        JsonNode rule = w.path("rules").get(0);
        assertThat(w.path("rules")).hasSize(1);
        assertThat(texts(rule.path("operations"))).containsExactly("CREATE");
        assertThat(texts(rule.path("resources"))).containsExactly("pods");
        assertThat(texts(rule.path("apiGroups"))).containsExactly("");
        assertThat(texts(rule.path("apiVersions"))).containsExactly("v1");
        assertThat(w.path("sideEffects").asText()).as("DRA pods may create a ResourceClaimTemplate, never on a dry run")
                .isEqualTo("NoneOnDryRun");
        assertThat(texts(w.path("admissionReviewVersions"))).contains("v1");
        assertThat(w.path("timeoutSeconds").asInt()).isBetween(1, 30);
        JsonNode service = w.path("clientConfig").path("service");
        assertThat(service.path("name").asText()).isEqualTo(Names.SCHEDULER);
        assertThat(service.path("namespace").asText()).isEqualTo(ValueSet.NAMESPACE);
        assertThat(service.path("path").asText()).isEqualTo("/webhook");
        JsonNode svc = r.one("Service", Names.SCHEDULER);
        assertThat(svc.path("spec").path("ports").findValuesAsText("port")).contains(service.path("port").asText());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void failurePolicyIsFailUnlessConfigured(ValueSet set) {
        assertThat(webhook(Helm.template(set)).path("failurePolicy").asText())
                .isEqualTo(set == ValueSet.FAILURE_IGNORE ? "Ignore" : "Fail");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void selectorsKeepOutIgnoredObjectsTheControlPlaneAndItsOwnNamespace(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode w = webhook(r);
        assertThat(notIn(w.path("namespaceSelector"), "hami.io/webhook")).containsExactly("ignore");
        assertThat(notIn(w.path("objectSelector"), "hami.io/webhook")).containsExactly("ignore");
        List<String> excluded = notIn(w.path("namespaceSelector"), "kubernetes.io/metadata.name");
        assertThat(excluded).contains("kube-system", ValueSet.NAMESPACE);
        if (set == ValueSet.CUSTOM) {
            assertThat(excluded).contains("monitoring");
            assertThat(w.path("namespaceSelector").path("matchLabels").path("gpu-workloads").asText()).isEqualTo("true");
        }
        // the chart's own pods carry the ignore label, so the webhook never sees them even if selected
        JsonNode labels = r.one("StatefulSet", Names.SCHEDULER).path("spec").path("template").path("metadata").path("labels");
        assertThat(labels.path("hami.io/webhook").asText()).isEqualTo("ignore");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void onlyPodsAskingForVgpuResourcesAreSent(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode conditions = webhook(r).path("matchConditions");
        assertThat(conditions).hasSize(1);
        String expression = conditions.get(0).path("expression").asText();
        String deviceConfig = r.one("ConfigMap", Names.DEVICE_CONFIG).path("data").path("device-config.yaml").asText();
        List<String> resources = new ArrayList<>();
        try {
            JsonNode nvidia = Helm.YAML.readTree(deviceConfig).path("nvidia");
            for (String key : List.of("resourceCountName", "resourceMemoryName", "resourceMemoryPercentageName",
                    "resourceCoreName", "resourcePriorityName")) {
                resources.add(nvidia.path(key).asText());
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        for (String resource : resources) {
            assertThat(expression).as("the condition names " + resource).contains("'" + resource + "'");
        }
        assertThat(expression).contains("object.spec.containers.exists(")
                .contains("object.spec.initContainers.exists(")
                .contains("c.resources.limits").contains("c.resources.requests");
    }

    @Test
    void everyPodIsSentWhenOnlyVgpuPodsIsOff() {
        Helm.Result r = Helm.templateRaw(List.of("--set", "scheduler.admissionWebhook.onlyVgpuPods=false",
                "--set", "scheduler.overwriteEnv=true", "--set", "scheduler.admissionWebhook.failurePolicy=Ignore"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        JsonNode w = webhook(new Rendered(Helm.parse(r.output())));
        assertThat(w.has("matchConditions")).isFalse();
        assertThat(w.path("failurePolicy").asText()).isEqualTo("Ignore");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ValueSet.class, mode = EnumSource.Mode.EXCLUDE, names = "DEVICE_PLUGIN_ONLY")
    void caBundleComesFromTheChartsSecretOrIsInjectedByCertManager(ValueSet set) {
        Rendered r = Helm.template(set);
        JsonNode config = r.one("MutatingWebhookConfiguration", Names.WEBHOOK);
        JsonNode clientConfig = webhook(r).path("clientConfig");
        if (set.certManager()) {
            String inject = config.path("metadata").path("annotations").path("cert-manager.io/inject-ca-from").asText();
            assertThat(inject).isEqualTo(ValueSet.NAMESPACE + "/" + Names.SCHEDULER + "-serving-cert");
            assertThat(r.find("Certificate", Names.SCHEDULER + "-serving-cert")).isPresent();
            assertThat(clientConfig.has("caBundle")).isFalse();
        } else {
            JsonNode secret = r.one("Secret", Names.TLS_SECRET);
            assertThat(clientConfig.path("caBundle").asText()).isNotEmpty()
                    .isEqualTo(secret.path("data").path("ca.crt").asText());
        }
    }

    @Test
    void noWebhookWithoutTheScheduler() {
        assertThat(Helm.template(ValueSet.DEVICE_PLUGIN_ONLY).all("MutatingWebhookConfiguration")).isEmpty();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
