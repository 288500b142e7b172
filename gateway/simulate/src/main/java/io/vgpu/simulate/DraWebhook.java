package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.gateway.core.PodSpec;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;

/**
 * The DRA admission of a running gateway: a pod that targets DRA mode (pod annotation or namespace label
 * {@code vgpu.io/mode=dra}, or the gateway's {@code VGPU_DRA_DEFAULT}) is POSTed to its real {@code /webhook} as an
 * AdmissionReview, the returned JSONPatch applied, and the ResourceClaimTemplate the webhook created read back from
 * the API server, as kube-controller-manager would read it. Blocking: called from {@link DraRun}'s driver thread,
 * never from an event loop.
 */
final class DraWebhook {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final KubernetesSerialization KUBE_JSON = new KubernetesSerialization();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CALL_TIMEOUT).build();
    private final URI webhook;
    private final KubernetesClient apiServer;

    /**
     * @param gatewayUrl {@code http://host:port} of the gateway's API listener
     * @param apiServer  the API server the gateway writes templates to
     */
    DraWebhook(String gatewayUrl, KubernetesClient apiServer) {
        this.webhook = URI.create(gatewayUrl + "/webhook");
        this.apiServer = apiServer;
    }

    /** What the webhook answered for one pod. */
    sealed interface Admission {
        /** Allowed: the patched pod and the template its claim comes from. */
        record Admitted(Pod pod, PodResourceClaim entry, ResourceClaimTemplate template) implements Admission {
        }

        /** Allowed with no claim (the pod asks for no GPU), or refused: why. */
        record NotAdmitted(String reason) implements Admission {
        }
    }

    /** Admits {@code spec} through the webhook; a transport failure or a non-200 answer is NotAdmitted. */
    Admission admit(PodSpec spec) {
        ObjectNode manifest = Manifests.pod(spec);
        JsonNode response;
        try {
            HttpResponse<String> reply = http.send(HttpRequest.newBuilder(webhook).timeout(CALL_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            Manifests.admissionReview(manifest, spec.namespace()).toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (reply.statusCode() != 200) {
                return new Admission.NotAdmitted("webhook error: HTTP " + reply.statusCode());
            }
            response = Manifests.JSON.readTree(reply.body()).path("response");
        } catch (IOException e) {
            return new Admission.NotAdmitted("webhook error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Admission.NotAdmitted("webhook error: interrupted");
        }
        if (!response.path("allowed").asBoolean(false)) {
            return new Admission.NotAdmitted("webhook denied: " + response.path("status").path("message").asText());
        }
        String patch = response.path("patch").asText("");
        ObjectNode patched;
        try {
            patched = patch.isEmpty() ? manifest : JsonPatch.apply(manifest,
                    Manifests.JSON.readTree(Base64.getDecoder().decode(patch)));
        } catch (IOException e) {
            return new Admission.NotAdmitted("webhook error: unreadable patch: " + e.getMessage());
        }
        Pod pod = KUBE_JSON.unmarshal(patched.toString(), Pod.class);
        PodResourceClaim entry = pod.getSpec().getResourceClaims() == null ? null
                : pod.getSpec().getResourceClaims().stream()
                .filter(e -> e.getResourceClaimTemplateName() != null).findFirst().orElse(null);
        if (entry == null) {
            return new Admission.NotAdmitted("no GPU requested");
        }
        ResourceClaimTemplate template = apiServer.resources(ResourceClaimTemplate.class)
                .inNamespace(spec.namespace()).withName(entry.getResourceClaimTemplateName()).get();
        if (template == null) {
            return new Admission.NotAdmitted("webhook allowed the pod but template " + spec.namespace() + "/"
                    + entry.getResourceClaimTemplateName() + " is not in the API server");
        }
        return new Admission.Admitted(pod, entry, template);
    }
}
