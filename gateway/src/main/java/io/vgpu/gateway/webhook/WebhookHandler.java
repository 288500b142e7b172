package io.vgpu.gateway.webhook;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.http.GatewayMetrics;
import io.vgpu.gateway.http.Rejections;

/**
 * {@code POST /webhook}: hands the body to {@link WebhookService} and writes its AdmissionReview.
 * Also the endpoint's {@link Rejections}: overload is answered per failurePolicy, an oversized body
 * with code 413, both as AdmissionReviews with HTTP 200. Records {@code vgpu_webhook_duration_seconds}.
 */
public final class WebhookHandler implements Handler<RoutingContext>, Rejections {

    private final WebhookService service;
    private final GatewayMetrics metrics;

    /**
     * @param service the protocol edge
     * @param metrics where the request timer is recorded
     */
    public WebhookHandler(WebhookService service, GatewayMetrics metrics) {
        this.service = service;
        this.metrics = metrics;
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        write(ctx, service.review(contentType(ctx), body(ctx)), start);
    }

    @Override
    public void overloaded(RoutingContext ctx) {
        long start = System.nanoTime();
        metrics.overloaded(ctx.request().path());
        write(ctx, service.overloaded(contentType(ctx), body(ctx)), start);
    }

    @Override
    public void bodyTooLarge(RoutingContext ctx) {
        write(ctx, service.tooLarge(), System.nanoTime());
    }

    private void write(RoutingContext ctx, WebhookReply reply, long start) {
        ctx.response().setStatusCode(reply.httpStatus())
                .putHeader(HttpHeaders.CONTENT_TYPE, WebhookService.JSON)
                .end(Buffer.buffer(reply.body()));
        metrics.webhook(reply.outcome().tag(), System.nanoTime() - start);
    }

    private static String contentType(RoutingContext ctx) {
        return ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    }

    private static byte[] body(RoutingContext ctx) {
        Buffer buffer = ctx.body().buffer();
        return buffer == null ? new byte[0] : buffer.getBytes();
    }
}
