package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's non-blocking calls to the Kubernetes API: raw requests on fabric8's asynchronous HTTP client
 * (the Vert.x 5 one), so that no thread ever waits for the API server. Every call passes the client-side
 * rate limit (QPS/burst), counts against a bound of calls in flight, and has a timeout; none of them ever
 * completes exceptionally: failures are {@link ApiResponse} values with status 0.
 *
 * <p>Two priorities: {@link Priority#NORMAL} waits (a bounded time) for the rate limiter;
 * {@link Priority#BEST_EFFORT} (Events) goes only when a token is free at once and is otherwise dropped, so
 * that Events never delay binds.
 *
 * <p>Completion threads: HTTP answers complete on the client's event loop, delays on the single
 * {@code kube-api-timer} thread. Continuations must not block.
 */
public final class KubeApi implements AutoCloseable {

    /** Merge patch content type (RFC 7386). */
    static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String JSON = "application/json";

    /** Call priority. */
    enum Priority {
        /** Waits up to {@code maxRateWait} for the rate limiter. */
        NORMAL,
        /** Dropped unless a token is free at once. */
        BEST_EFFORT
    }

    private final HttpClient http;
    private final KubernetesSerialization serialization;
    private final String base;
    private final KubeClientConfig config;
    private final TokenBucket bucket;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ScheduledExecutorService timer;
    private final KubeApiMetrics metrics;

    /**
     * @param client the fabric8 client (its HTTP client, credentials and master URL are used)
     * @param config rate limit, timeout and in-flight bound
     */
    public KubeApi(KubernetesClient client, KubeClientConfig config) {
        this(client, config, KubeApiMetrics.NONE);
    }

    /** As above, recording every call's latency and outcome in {@code metrics}. */
    public KubeApi(KubernetesClient client, KubeClientConfig config, KubeApiMetrics metrics) {
        this.metrics = metrics;
        this.http = client.getHttpClient();
        this.serialization = client.getKubernetesSerialization();
        String master = client.getMasterUrl().toString();
        this.base = master.endsWith("/") ? master.substring(0, master.length() - 1) : master;
        this.config = config;
        this.bucket = new TokenBucket(config.qps(), config.burst(), System::nanoTime);
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "kube-api-timer");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.timer = executor;
    }

    /** GET {@code path}. */
    CompletionStage<ApiResponse> get(String path) {
        return call("GET", path, null, null, Priority.NORMAL);
    }

    /** PATCH {@code path} with a JSON merge patch. */
    CompletionStage<ApiResponse> mergePatch(String path, String body) {
        return call("PATCH", path, MERGE_PATCH, body, Priority.NORMAL);
    }

    /** POST {@code path} with a JSON body. */
    CompletionStage<ApiResponse> post(String path, String body, Priority priority) {
        return call("POST", path, JSON, body, priority);
    }

    /** DELETE {@code path} with a JSON {@code DeleteOptions} body (preconditions, for instance). */
    CompletionStage<ApiResponse> delete(String path, String deleteOptions) {
        return call("DELETE", path, JSON, deleteOptions, Priority.NORMAL);
    }

    /** A stage that completes (on the timer thread) after {@code delay}. */
    CompletionStage<Void> delay(Duration delay) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        timer.schedule(() -> done.complete(null), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return done;
    }

    /** The client's JSON (de)serialisation of Kubernetes objects. */
    KubernetesSerialization serialization() {
        return serialization;
    }

    /** {@code body} as {@code type}, or null when it does not parse. */
    <T> T parse(String body, Class<T> type) {
        try {
            return serialization.unmarshal(body, type);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Calls currently in flight (waiting for a token included). */
    int inFlight() {
        return inFlight.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /**
     * Whether a {@link Priority#BEST_EFFORT} call to {@code path} made now would be sent rather than refused at once (a
     * rate token free, room in flight); nothing is taken. For callers whose request costs much to build (an Event
     * listing thousands of nodes): a no is counted as the refused call would be ({@code overloaded} or
     * {@code rate_limited}), so the metrics still show every call the client gave up.
     */
    public boolean admitsBestEffort(String method, String path) {
        long start = System.nanoTime();
        if (inFlight.get() >= config.maxInFlight()) {
            record(method, path, KubeApiMetrics.OVERLOADED, start);
            return false;
        }
        if (!bucket.hasToken()) {
            record(method, path, KubeApiMetrics.RATE_LIMITED, start);
            return false;
        }
        return true;
    }

    private CompletionStage<ApiResponse> call(String method, String path, String contentType, String body,
                                              Priority priority) {
        long start = System.nanoTime();
        if (inFlight.incrementAndGet() > config.maxInFlight()) {
            inFlight.decrementAndGet();
            record(method, path, KubeApiMetrics.OVERLOADED, start);
            return CompletableFuture.completedFuture(ApiResponse.unanswered(method, path,
                    "kubernetes API client overloaded: " + config.maxInFlight() + " calls in flight"));
        }
        long maxWait = priority == Priority.BEST_EFFORT ? 0 : config.maxRateWait().toNanos();
        long wait = bucket.reserve(maxWait);
        CompletionStage<ApiResponse> answer;
        if (wait < 0) {
            inFlight.decrementAndGet();
            record(method, path, KubeApiMetrics.RATE_LIMITED, start);
            return CompletableFuture.completedFuture(ApiResponse.unanswered(method, path,
                    "kubernetes API client rate limit exceeded (qps=" + config.qps() + ", burst=" + config.burst() + ")"));
        } else if (wait == 0) {
            answer = send(method, path, contentType, body, start);
        } else {
            answer = delay(Duration.ofNanos(wait)).thenCompose(ignored -> send(method, path, contentType, body, start));
        }
        return answer.whenComplete((r, t) -> inFlight.decrementAndGet());
    }

    private CompletionStage<ApiResponse> send(String method, String path, String contentType, String body,
                                              long start) {
        long timeoutMs = config.requestTimeout().toMillis();
        CompletableFuture<HttpResponse<String>> sent;
        try {
            HttpRequest.Builder request = http.newHttpRequestBuilder().uri(base + path)
                    .timeout(timeoutMs, TimeUnit.MILLISECONDS);
            if (body != null) {
                request.method(method, contentType, body);
            }
            sent = http.sendAsync(request.build(), String.class);
        } catch (RuntimeException e) {
            record(method, path, KubeApiMetrics.UNREACHABLE, start);
            return CompletableFuture.completedFuture(ApiResponse.unanswered(method, path, describe(method, path, e)));
        }
        // fabric8's own timeout covers the exchange; this one also covers its retries
        return sent.orTimeout(timeoutMs * (config.retries() + 1) + 100, TimeUnit.MILLISECONDS)
                .handle((response, failure) -> {
                    if (failure != null) {
                        record(method, path, timedOut(failure) ? KubeApiMetrics.TIMEOUT : KubeApiMetrics.UNREACHABLE,
                                start);
                        return ApiResponse.unanswered(method, path, describe(method, path, failure));
                    }
                    record(method, path, Integer.toString(response.code()), start);
                    return answered(method, path, response);
                });
    }

    private void record(String method, String path, String code, long start) {
        try {
            metrics.call(method, KubeApiMetrics.resourceOf(path), code, System.nanoTime() - start);
        } catch (RuntimeException e) {
            // a metrics failure must never turn an API answer into a failed stage
        }
    }

    private static boolean timedOut(Throwable failure) {
        return rootOf(failure) instanceof TimeoutException;
    }

    private static Throwable rootOf(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private ApiResponse answered(String method, String path, HttpResponse<String> response) {
        String text = response.body() == null ? "" : response.body();
        int status = response.code();
        if (status >= 200 && status < 300) {
            return new ApiResponse(method, path, status, text, "");
        }
        return new ApiResponse(method, path, status, text, statusMessage(method, path, status, text));
    }

    /** The Status message the API server sent, or a short description of the status. */
    private String statusMessage(String method, String path, int status, String text) {
        Status parsed = text.isBlank() ? null : parse(text, Status.class);
        if (parsed != null && parsed.getMessage() != null && !parsed.getMessage().isBlank()) {
            return parsed.getMessage();
        }
        if (status == 404) {
            return notFoundText(path);
        }
        return method + " " + path + ": HTTP " + status;
    }

    /** What a real API server says for a missing object: {@code <resource> "<name>" not found}. */
    static String notFoundText(String path) {
        String[] parts = path.split("/");
        if (parts.length >= 2) {
            String resource = parts[parts.length - 2];
            return resource + " \"" + parts[parts.length - 1] + "\" not found";
        }
        return path + " not found";
    }

    private String describe(String method, String path, Throwable failure) {
        Throwable cause = rootOf(failure);
        if (cause instanceof TimeoutException) {
            return method + " " + path + " timed out after " + config.requestTimeout().toMillis() + "ms";
        }
        return method + " " + path + " failed: " + cause;
    }
}
