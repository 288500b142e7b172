package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;

import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * fabric8's credential handling ({@link TokenRefreshInterceptor}, installed in its place under the same name) with
 * the refresh moved to a worker. fabric8 refreshes by re-reading the kubeconfig or the service-account token file,
 * and by running the kubeconfig's {@code exec} credential plugin (a process that can take seconds), on the thread
 * at hand: the thread that sends a request (once a minute; on every request while the refresh finds no token, as
 * with client certificates) and, after a 401, the HTTP client's thread, which is one of the gateway's event loops.
 *
 * <p>Here the headers are fabric8's own ({@code before}: basic auth, or the current bearer token), from an instance
 * whose last refresh is dated far ahead, so it never refreshes inline. A 401 refreshes on {@code worker}, with a fresh
 * fabric8 instance over the same {@link Config} (the new token lands in the config, so later requests carry it), and
 * fabric8 then retries the request once, as before. What is given up is the refresh ahead of time: a token that
 * expires costs one 401 and a retry, as in client-go. Thread-safe.
 */
final class OffLoopTokenRefresh implements Interceptor {

    /** Far enough ahead that fabric8's once-a-minute check never finds a refresh due. */
    private static final Duration NEVER = Duration.ofDays(365L * 100);

    private final Config config;
    private final HttpClient.Factory factory;
    private final TokenRefreshInterceptor headers;
    private final Function<Supplier<CompletableFuture<Boolean>>, CompletableFuture<Boolean>> worker;

    /**
     * @param config  the client's configuration (its token is read and refreshed here)
     * @param factory the client's HTTP client factory (an OIDC refresh calls the provider with it)
     * @param worker  runs a blocking refresh off the calling thread and completes with its result
     */
    OffLoopTokenRefresh(Config config, HttpClient.Factory factory,
                        Function<Supplier<CompletableFuture<Boolean>>, CompletableFuture<Boolean>> worker) {
        this.config = config;
        this.factory = factory;
        this.worker = worker;
        this.headers = new TokenRefreshInterceptor(config, factory, Instant.now().plus(NEVER));
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        headers.before(builder, request, tags);
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        if (response.code() != HttpURLConnection.HTTP_UNAUTHORIZED) {
            return CompletableFuture.completedFuture(false);
        }
        return worker.apply(() -> new TokenRefreshInterceptor(config, factory, Instant.now())
                .afterFailure(builder, response, tags));
    }
}
