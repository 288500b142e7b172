package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

import java.io.File;
import java.util.function.Function;

/**
 * Builds the fabric8 client on fabric8's Vert.x 5 HTTP client, from a kubeconfig file or in-cluster
 * configuration. The one place where fabric8 client options are chosen.
 */
public final class KubeClientFactory {

    private KubeClientFactory() {
    }

    /**
     * A client for {@code config}.
     *
     * @param config connection settings
     * @param vertx  the Vertx instance whose event loops carry the HTTP traffic (the gateway's own), or
     *               null to let fabric8 start a private one
     */
    public static KubernetesClient create(KubeClientConfig config, Vertx vertx) {
        return builder(fabric8Config(config), vertx).build();
    }

    /**
     * A builder with our HTTP client factory and {@code fabric8Config} (tests point it at a mock server). On the
     * gateway's own Vert.x, whose event loops then carry the client's responses, credentials are refreshed on a
     * worker ({@link OffLoopTokenRefresh}), never on those loops.
     */
    static KubernetesClientBuilder builder(Config fabric8Config, Vertx vertx) {
        Vertx5HttpClientFactory http = vertx == null ? new Vertx5HttpClientFactory() : new Vertx5HttpClientFactory(vertx);
        KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(fabric8Config)
                .withHttpClientFactory(http);
        if (vertx != null) {
            WorkerExecutor credentials = vertx.createSharedWorkerExecutor("vgpu-kube-credentials", 1);
            builder.withHttpClientBuilderConsumer(client -> client.addOrReplaceInterceptor(TokenRefreshInterceptor.NAME,
                    new OffLoopTokenRefresh(fabric8Config, http, refresh -> credentials
                            .executeBlocking(refresh::get, false)
                            .toCompletionStage().toCompletableFuture()
                            .thenCompose(Function.identity()))));
        }
        return builder;
    }

    /** The fabric8 configuration: where to connect, plus our timeouts and retries. */
    static Config fabric8Config(KubeClientConfig config) {
        Config fabric8 = isBlank(config.kubeconfig())
                ? Config.autoConfigure(blankToNull(config.context()))
                : Config.fromKubeconfig(blankToNull(config.context()), new File(config.kubeconfig()));
        return tune(fabric8, config);
    }

    /** Applies our request timeout and retry settings to a fabric8 configuration. */
    static Config tune(Config fabric8, KubeClientConfig config) {
        fabric8.setRequestTimeout((int) config.requestTimeout().toMillis());
        fabric8.setRequestRetryBackoffLimit(config.retries());
        fabric8.setRequestRetryBackoffInterval(100);
        return fabric8;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String blankToNull(String s) {
        return isBlank(s) ? null : s;
    }
}
