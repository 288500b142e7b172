package io.vgpu.gateway.webhook;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vgpu.gateway.http.GatewayMetrics;
import io.vgpu.gateway.http.Rejections;
import io.vgpu.gateway.http.RequestBody;
import io.vgpu.gateway.scheduling.Stages;

/**
 * {@code POST /webhook}: hands the body to {@link WebhookService} and writes its AdmissionReview.
 * Also the endpoint's {@link Rejections}: overload is answered per failurePolicy, an oversized body
 * with code 413, both as AdmissionReviews with HTTP 200. Records {@code vgpu_webhook_duration_seconds}.
 *
 * <p>A review is decoded and decided on a worker thread: its cost grows with the body (up to the 7 MiB limit, a
 * pod of tens of thousands of containers takes seconds), and the event loop must keep serving the other
 * requests meanwhile. The answer is written back on the event loop.
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
        byte[] body = RequestBody.bytes(ctx);
        io.vertx.core.Context context = ctx.vertx().getOrCreateContext();
        // a DRA pod may wait for the quota tickets and the API server: the answer is written back on this context
        Stages.offLoop(() -> service.admit(body))
                .compose(stage -> io.vertx.core.Future.fromCompletionStage(stage, context))
                .otherwise(e -> service.failed(e))
                .onSuccess(reply -> write(ctx, reply, start));
    }

    @Override
    public void overloaded(RoutingContext ctx) {
        long start = System.nanoTime();
        metrics.overloaded("/webhook");
        byte[] body = RequestBody.bytes(ctx);
        // only the envelope is read (to echo its uid), but that is a parse of up to 7 MiB
        Stages.offLoop(() -> service.overloaded(body))
                .otherwise(e -> service.failed(e))
                .onSuccess(reply -> write(ctx, reply, start));
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
}
