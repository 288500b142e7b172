package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What the mutating webhook needs to decide (spec §5.3): the scheduler name(s) it writes into GPU
 * pods, HAMi's {@code --force-overwrite-default-scheduler}, and the NVIDIA device config.
 *
 * <p><b>Scheduler names.</b> An empty list is HAMi with {@code --scheduler-name ""}: GPU pods keep
 * their {@code schedulerName}. One name is HAMi's usual mode. With K &gt; 1 names (sharded
 * kube-schedulers, DESIGN §3a) a GPU pod that does not already name one of them is assigned
 * <pre>
 *   names[ floorMod( fnv1a32( utf8(shardKey) ), K ) ]
 * </pre>
 * where {@code fnv1a32} is 32-bit FNV-1a (offset basis 0x811C9DC5, prime 0x01000193) read as a
 * signed int, and the shard key is the pod UID, or {@code namespace/name} when the UID is empty (the
 * admission adapter may fill the UID with the AdmissionReview request UID). The assignment depends on
 * nothing but the key and the list, so every gateway replica agrees. A pod that already names one of
 * the K schedulers keeps that name, exactly as a pod already naming HAMi's scheduler does with K = 1.
 *
 * @param schedulerNames                 names the webhook assigns, in a fixed order (order matters for sharding)
 * @param forceOverwriteDefaultScheduler whether a pod naming {@code default-scheduler} may be taken over
 * @param nvidia                         the NVIDIA device config
 */
public record WebhookConfig(List<String> schedulerNames, boolean forceOverwriteDefaultScheduler, NvidiaConfig nvidia) {

    /** Kubernetes' default scheduler name. */
    public static final String DEFAULT_SCHEDULER = "default-scheduler";

    private static final int FNV_OFFSET_BASIS = 0x811C9DC5;
    private static final int FNV_PRIME = 0x01000193;

    /** Copies the list; rejects blank or duplicate names and a null device config. */
    public WebhookConfig {
        schedulerNames = List.copyOf(schedulerNames);
        Objects.requireNonNull(nvidia, "nvidia");
        if (schedulerNames.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("blank scheduler name in " + schedulerNames);
        }
        if (schedulerNames.stream().distinct().count() != schedulerNames.size()) {
            throw new IllegalArgumentException("duplicate scheduler name in " + schedulerNames);
        }
    }

    /** HAMi's single-name configuration; {@code schedulerName} "" means "do not rewrite". */
    public static WebhookConfig single(String schedulerName, boolean forceOverwriteDefaultScheduler,
                                       NvidiaConfig nvidia) {
        List<String> names = schedulerName == null || schedulerName.isEmpty() ? List.of() : List.of(schedulerName);
        return new WebhookConfig(names, forceOverwriteDefaultScheduler, nvidia);
    }

    /** Whether {@code name} is one of the configured scheduler names. */
    public boolean isOwnScheduler(String name) {
        return schedulerNames.contains(name);
    }

    /**
     * The scheduler name a GPU pod gets: its own when it already names one of ours, else the
     * shard's name. Requires at least one configured name.
     */
    public String schedulerFor(PodSpec pod) {
        if (schedulerNames.isEmpty()) {
            throw new IllegalStateException("no scheduler name configured");
        }
        if (isOwnScheduler(pod.schedulerName())) {
            return pod.schedulerName();
        }
        return schedulerNames.get(Math.floorMod(fnv1a32(shardKey(pod)), schedulerNames.size()));
    }

    /** The key a pod is sharded by: its UID, or {@code namespace/name} when the UID is empty. */
    public static String shardKey(PodSpec pod) {
        return pod.uid().isEmpty() ? pod.namespace() + "/" + pod.name() : pod.uid();
    }

    /** 32-bit FNV-1a of the UTF-8 bytes of {@code key}, as a signed int. */
    public static int fnv1a32(String key) {
        int hash = FNV_OFFSET_BASIS;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= FNV_PRIME;
        }
        return hash;
    }
}
