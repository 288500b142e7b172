package io.vgpu.gateway.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.dra.ClaimTemplate;
import io.vgpu.gateway.core.port.ClaimTemplates;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ClaimTemplates} on the API server ({@code resource.k8s.io/v1}) through {@link KubeApi}'s asynchronous
 * client: POST the template; 409 (AlreadyExists) → GET it and compare the content hash annotation ({@link
 * ClaimTemplate#CONTENT_HASH}): equal is success, different (or missing: not ours) is a conflict the user is told
 * about. Remembers when this replica last handed out each template, so the {@link TemplateSweeper} of this replica
 * never deletes a template a pod is being admitted with.
 */
public final class KubeClaimTemplates implements ClaimTemplates {

    /** The API group and version of ResourceClaimTemplates. */
    static final String API = "/apis/resource.k8s.io/v1";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KubeApi api;
    private final Clock clock;
    private final Map<String, Instant> handedOut = new ConcurrentHashMap<>();

    /**
     * @param api   the asynchronous API client
     * @param clock when a template was handed out
     */
    public KubeClaimTemplates(KubeApi api, Clock clock) {
        this.api = api;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Outcome> ensure(ClaimTemplate template) {
        handedOut.put(key(template.namespace(), template.name()), clock.instant());
        return api.post(collection(template.namespace()), template.objectJson(), KubeApi.Priority.NORMAL)
                .thenCompose(created -> {
                    if (created.ok()) {
                        return CompletableFuture.completedFuture(new Outcome.Created());
                    }
                    if (created.conflict()) {
                        return api.get(collection(template.namespace()) + "/" + template.name())
                                .thenApply(existing -> compare(template, existing));
                    }
                    return CompletableFuture.completedFuture(failed(created));
                });
    }

    /** When this replica last handed out {@code namespace/name}, if it did. */
    Optional<Instant> handedOut(String namespace, String name) {
        return Optional.ofNullable(handedOut.get(key(namespace, name)));
    }

    /** Forgets templates that are gone. */
    void forget(String namespace, String name) {
        handedOut.remove(key(namespace, name));
    }

    static String collection(String namespace) {
        return API + "/namespaces/" + namespace + "/resourceclaimtemplates";
    }

    private static Outcome compare(ClaimTemplate wanted, ApiResponse existing) {
        if (!existing.ok()) {
            return existing.notFound() ? new Outcome.Failed("ResourceClaimTemplate " + wanted.name()
                    + " existed and is gone (being deleted?); retry") : failed(existing);
        }
        String hash;
        try {
            JsonNode object = MAPPER.readTree(existing.body());
            hash = object.path("metadata").path("annotations").path(ClaimTemplate.CONTENT_HASH).asText("");
        } catch (IOException e) {
            return new Outcome.Failed("unreadable ResourceClaimTemplate " + wanted.name() + ": " + e.getMessage());
        }
        if (hash.equals(wanted.contentHash())) {
            return new Outcome.Existed();
        }
        return new Outcome.Conflict("ResourceClaimTemplate " + wanted.namespace() + "/" + wanted.name()
                + " exists with other content (" + (hash.isEmpty() ? "not made by the vgpu gateway"
                : ClaimTemplate.CONTENT_HASH + " " + hash) + "); delete it so the gateway can make its own");
    }

    private static Outcome failed(ApiResponse r) {
        if (r.notFound()) {
            return new Outcome.Failed("the API server does not serve resource.k8s.io/v1 ResourceClaimTemplates "
                    + "(DRA needs Kubernetes 1.34 or later): " + r.error());
        }
        return new Outcome.Failed(r.error().isEmpty() ? r.method() + " " + r.path() + ": HTTP " + r.status()
                : r.error());
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
