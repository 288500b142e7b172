package io.vgpu.gateway.core.dra;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One ResourceClaimTemplate ({@code resource.k8s.io/v1}) the webhook makes for a shape of pod: named
 * {@code vgpu-<hash>} after a SHA-256 of its canonical content, so every replica, every restart and every pod of
 * the same shape in a namespace names the same template. The hash also travels as the annotation
 * {@value #CONTENT_HASH}: an existing template of that name with another hash is a conflict, never reused (the
 * API server rewrites quantities, so the stored spec cannot be compared text for text).
 *
 * @param namespace   where it lives (the pod's namespace)
 * @param name        {@code vgpu-<first 16 hex digits of the hash>}
 * @param contentHash the full SHA-256 of {@link JsonText#write} of {@code spec}, in hex
 * @param spec        the template's {@code spec} ({@code {"spec": {"devices": …}}}), plain JSON values
 */
public record ClaimTemplate(String namespace, String name, String contentHash, Map<String, Object> spec) {

    /** Label of every template the gateway makes (and the sweeper's selector, with {@link #COMPONENT}). */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** Value of {@link #MANAGED_BY}. */
    public static final String MANAGER = "vgpu-gateway";
    /** Label naming what the object is for. */
    public static final String COMPONENT_LABEL = "vgpu.io/component";
    /** Value of {@link #COMPONENT_LABEL} on templates. */
    public static final String COMPONENT = "claim-template";
    /** Annotation with {@link #contentHash}. */
    public static final String CONTENT_HASH = "vgpu.io/content-hash";
    /** The label selector of the gateway's templates. */
    public static final String SELECTOR = COMPONENT_LABEL + "=" + COMPONENT + "," + MANAGED_BY + "=" + MANAGER;
    /** Pod label naming the template the webhook gave the pod (the sweeper lists pods by it). */
    public static final String POD_LABEL = "vgpu.io/claim-template";

    private static final String PREFIX = "vgpu-";
    private static final int NAME_HASH_DIGITS = 16;

    /** Requires all parts. */
    public ClaimTemplate {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(contentHash, "contentHash");
        spec = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(spec));
    }

    /** The template for {@code spec} in {@code namespace}, named by its hash. */
    public static ClaimTemplate of(String namespace, Map<String, Object> spec) {
        String hash = sha256(JsonText.write(spec));
        return new ClaimTemplate(namespace, PREFIX + hash.substring(0, NAME_HASH_DIGITS), hash, spec);
    }

    /** Whether {@code name} has the form of a template name this gateway makes. */
    public static boolean isOurName(String name) {
        return name != null && name.startsWith(PREFIX) && name.length() == PREFIX.length() + NAME_HASH_DIGITS;
    }

    /** The whole object as the API server takes it (labels and the hash annotation included). */
    public String objectJson() {
        Map<String, Object> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, MANAGER);
        labels.put(COMPONENT_LABEL, COMPONENT);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        metadata.put("labels", labels);
        metadata.put("annotations", Map.of(CONTENT_HASH, contentHash));
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "resource.k8s.io/v1");
        object.put("kind", "ResourceClaimTemplate");
        object.put("metadata", metadata);
        object.put("spec", spec);
        return JsonText.write(object);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
