package io.vgpu.gateway.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.dra.ClaimTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deletes the gateway's ResourceClaimTemplates ({@link ClaimTemplate#SELECTOR}) that no pod has used for
 * {@code unusedFor} (an hour in the gateway). A template is in use while a pod names it in
 * {@code spec.resourceClaims[].resourceClaimTemplateName}; pods are listed by the label the webhook puts on them
 * ({@link ClaimTemplate#POD_LABEL}). A template is old enough when its creation, the last sweep that saw it in use
 * and the last admission of this replica that handed it out are all {@code unusedFor} ago. Any replica may sweep:
 * the delete carries the template's uid and resourceVersion as preconditions, so a template that was recreated or
 * changed meanwhile is left alone, and a second replica's delete of the same template answers 404 or 409, both
 * harmless. Non-blocking.
 */
public final class TemplateSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(TemplateSweeper.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KubeApi api;
    private final KubeClaimTemplates templates;
    private final Clock clock;
    private final Duration unusedFor;
    private final Map<String, Instant> lastSeenUsed = new ConcurrentHashMap<>();

    /**
     * @param api       the asynchronous API client
     * @param templates this replica's template maker (what it handed out recently)
     * @param clock     now
     * @param unusedFor how long a template stays without a pod
     */
    public TemplateSweeper(KubeApi api, KubeClaimTemplates templates, Clock clock, Duration unusedFor) {
        this.api = api;
        this.templates = templates;
        this.clock = clock;
        this.unusedFor = unusedFor;
    }

    /** One sweep; completes with the names ({@code namespace/name}) deleted, never exceptionally. */
    public CompletionStage<List<String>> sweep() {
        String templatesPath = KubeClaimTemplates.API + "/resourceclaimtemplates?labelSelector="
                + URLEncoder.encode(ClaimTemplate.SELECTOR, StandardCharsets.UTF_8);
        String podsPath = "/api/v1/pods?labelSelector=" + URLEncoder.encode(ClaimTemplate.POD_LABEL,
                StandardCharsets.UTF_8);
        return api.get(templatesPath).thenCombine(api.get(podsPath), this::plan)
                .thenCompose(this::deleteAll)
                .exceptionally(e -> {
                    LOG.warn("template sweep failed: {}", e.toString());
                    return List.of();
                });
    }

    private record Doomed(String namespace, String name, String uid, String resourceVersion) {
    }

    private List<Doomed> plan(ApiResponse templateList, ApiResponse podList) {
        if (!templateList.ok() || !podList.ok()) {
            LOG.warn("template sweep skipped: {}", templateList.ok() ? podList.error() : templateList.error());
            return List.of();
        }
        Instant now = clock.instant();
        Set<String> used = used(read(podList.body()));
        Set<String> present = new HashSet<>();
        List<Doomed> doomed = new ArrayList<>();
        for (JsonNode t : read(templateList.body()).path("items")) {
            JsonNode meta = t.path("metadata");
            String ns = meta.path("namespace").asText();
            String name = meta.path("name").asText();
            String key = ns + "/" + name;
            present.add(key);
            if (used.contains(key)) {
                lastSeenUsed.put(key, now);
                continue;
            }
            Instant since = latest(created(meta), lastSeenUsed.get(key), templates.handedOut(ns, name).orElse(null));
            if (!since.plus(unusedFor).isAfter(now)) {
                doomed.add(new Doomed(ns, name, meta.path("uid").asText(), meta.path("resourceVersion").asText()));
            }
        }
        lastSeenUsed.keySet().retainAll(present);
        return doomed;
    }

    private CompletionStage<List<String>> deleteAll(List<Doomed> doomed) {
        List<String> deleted = new ArrayList<>();
        CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
        for (Doomed d : doomed) {
            chain = chain.thenCompose(v -> delete(d).thenAccept(gone -> {
                if (gone) {
                    synchronized (deleted) {
                        deleted.add(d.namespace + "/" + d.name);
                    }
                }
            }));
        }
        return chain.thenApply(v -> List.copyOf(deleted));
    }

    private CompletionStage<Boolean> delete(Doomed d) {
        String options = "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"preconditions\":{\"uid\":\"" + d.uid
                + "\",\"resourceVersion\":\"" + d.resourceVersion + "\"}}";
        return api.delete(KubeClaimTemplates.collection(d.namespace) + "/" + d.name, options).thenApply(r -> {
            if (r.ok()) {
                LOG.info("deleted ResourceClaimTemplate {}/{}: no pod used it for {}", d.namespace, d.name, unusedFor);
                templates.forget(d.namespace, d.name);
                lastSeenUsed.remove(d.namespace + "/" + d.name);
                return true;
            }
            if (!r.notFound() && !r.conflict()) {
                LOG.warn("could not delete ResourceClaimTemplate {}/{}: {}", d.namespace, d.name, r.error());
            }
            return false;
        });
    }

    private static Set<String> used(JsonNode podList) {
        Set<String> used = new HashSet<>();
        for (JsonNode pod : podList.path("items")) {
            String ns = pod.path("metadata").path("namespace").asText();
            for (JsonNode claim : pod.path("spec").path("resourceClaims")) {
                String template = claim.path("resourceClaimTemplateName").asText("");
                if (!template.isEmpty()) {
                    used.add(ns + "/" + template);
                }
            }
        }
        return used;
    }

    private static Instant created(JsonNode meta) {
        try {
            return Instant.parse(meta.path("creationTimestamp").asText());
        } catch (DateTimeParseException e) {
            return Instant.EPOCH; // no creation time: its age is judged by what this replica saw
        }
    }

    private static Instant latest(Instant... times) {
        Instant max = Instant.EPOCH;
        for (Instant t : times) {
            if (t != null && t.isAfter(max)) {
                max = t;
            }
        }
        return max;
    }

    private static JsonNode read(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            return MAPPER.createObjectNode();
        }
    }
}
