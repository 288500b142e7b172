package io.vgpu.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's error handler for plain HTTP failures (unknown path, wrong method, a handler that
 * failed): an RFC 9457 problem body, e.g.
 * {@code {"type":"about:blank","title":"Not Found","status":404,"detail":"GET /nope"}}
 * with {@code Content-Type: application/problem+json}. Unexpected failures (5xx) are logged here, once.
 */
final class ProblemHandler implements Handler<RoutingContext> {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemHandler.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public void handle(RoutingContext ctx) {
        int status = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
        String detail = ctx.request().method() + " " + ctx.request().path();
        if (status >= 500) {
            LOG.error("{} failed with {}", detail, status, ctx.failure());
        }
        if (ctx.response().ended() || ctx.response().headWritten()) {
            return;
        }
        ObjectNode problem = MAPPER.createObjectNode();
        problem.put("type", "about:blank");
        problem.put("title", title(status));
        problem.put("status", status);
        problem.put("detail", detail);
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("problem body not serialisable", e);
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/problem+json")
                .end(Buffer.buffer(body));
    }

    private static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Content Too Large";
            case 503 -> "Service Unavailable";
            case 500 -> "Internal Server Error";
            default -> "HTTP " + status;
        };
    }
}
