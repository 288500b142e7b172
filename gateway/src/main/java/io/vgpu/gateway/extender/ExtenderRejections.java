package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.endpoint.Rejections;

import java.util.Map;
import java.util.function.Function;

/**
 * The rejections of the scheduler-extender verbs (spec §2.2–§2.3): HTTP 200 and the verb's result
 * JSON with only {@code Error} set, because kube-scheduler discards the body of any non-200 answer.
 * {@code /filter} answers a whole {@code ExtenderFilterResult}, {@code /bind} an
 * {@code ExtenderBindingResult}. Every overload answer is counted, as the webhook's are.
 */
public final class ExtenderRejections implements Rejections {

    /** The {@code Error} text past the in-flight bound. */
    public static final String OVERLOADED = "overloaded";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String endpoint;
    private final Function<String, Object> resultWithError;
    private final long maxBodyBytes;
    private final ExtenderMetrics metrics;

    private ExtenderRejections(String endpoint, Function<String, Object> resultWithError, long maxBodyBytes,
                               ExtenderMetrics metrics) {
        this.endpoint = endpoint;
        this.resultWithError = resultWithError;
        this.maxBodyBytes = maxBodyBytes;
        this.metrics = metrics;
    }

    /**
     * For {@code POST /filter}: an {@code ExtenderFilterResult} with only {@code Error}; overload answers are counted
     * in {@code vgpu_http_overloaded_total{endpoint="/filter"}}.
     */
    public static ExtenderRejections filter(long maxBodyBytes, ExtenderMetrics metrics) {
        return new ExtenderRejections("/filter", ExtenderFilterResult::error, maxBodyBytes, metrics);
    }

    /** For {@code POST /bind}: {@code {"Error": …}}; overload answers counted as {@code endpoint="/bind"}. */
    public static ExtenderRejections bind(long maxBodyBytes, ExtenderMetrics metrics) {
        return new ExtenderRejections("/bind", message -> Map.of("Error", message), maxBodyBytes, metrics);
    }

    @Override
    public void overloaded(RoutingContext ctx) {
        metrics.overloaded(endpoint);
        write(ctx, OVERLOADED);
    }

    @Override
    public void bodyTooLarge(RoutingContext ctx) {
        write(ctx, "request body exceeds " + maxBodyBytes + " bytes");
    }

    /** HTTP 200 with the reason in {@code Error}: kube-scheduler shows it in the pod's events and its log. */
    @Override
    public void unauthorized(RoutingContext ctx, String why) {
        write(ctx, why);
    }

    private void write(RoutingContext ctx, String message) {
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(resultWithError.apply(message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("extender result not serialisable", e);
        }
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(Buffer.buffer(body));
    }
}
