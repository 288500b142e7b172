package io.vgpu.deviceplugin.dra.kubelet;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.deviceplugin.dra.prepare.ClaimObject;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.ClaimSource;
import io.vgpu.deviceplugin.dra.prepare.PodClaims;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@link ClaimSource} over fabric8: one GET per claim ({@code resource.k8s.io/v1}, RBAC
 * {@code get resourceclaims}) and per pod ({@code get pods}), each on {@code executor} (fabric8's
 * synchronous calls never run on an event loop) and bounded by {@code timeout}.
 */
final class KubeClaimSource implements ClaimSource {

    private final KubernetesClient client;
    private final Executor executor;
    private final Duration timeout;

    KubeClaimSource(KubernetesClient client, Executor executor, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public CompletionStage<Optional<ClaimObject>> claim(ClaimRef ref) {
        return call(() -> Optional.ofNullable(client.resources(ResourceClaim.class).inNamespace(ref.namespace())
                .withName(ref.name()).get()).map(ClaimViews::claim));
    }

    @Override
    public CompletionStage<Optional<PodClaims>> pod(String namespace, String name) {
        return call(() -> Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get()).map(ClaimViews::pod));
    }

    private <T> CompletionStage<T> call(Supplier<T> request) {
        return CompletableFuture.supplyAsync(request, executor).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((value, error) -> {
                    if (error == null) {
                        return value;
                    }
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    throw new CompletionException(cause instanceof TimeoutException
                            ? new IllegalStateException("no answer from the API server within " + timeout.toMillis() + " ms")
                            : cause);
                });
    }
}
