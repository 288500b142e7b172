package io.vgpu.gateway.webhook;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.dra.DraMode;
import io.vgpu.gateway.webhook.AdmissionReviewDecoder.Request;
import io.vgpu.gateway.webhook.WebhookReply.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The DRA branch of {@link WebhookService#admit}: decodes the pod once, sends it down the HAMi path unless it targets
 * DRA, and formats a {@link DraAdmission.Result} as the AdmissionReview (allowed with patch and warnings; denied
 * 403; errored 500; unavailable per the failure policy). Logs each DRA decision once.
 */
final class DraReplies {

    private static final Logger LOG = LoggerFactory.getLogger(DraReplies.class);

    private final WebhookService service;
    private final DraAdmission dra;
    private final AdmissionResponses responses;

    DraReplies(WebhookService service, DraAdmission dra, AdmissionResponses responses) {
        this.service = service;
        this.dra = dra;
        this.responses = responses;
    }

    CompletionStage<WebhookReply> admit(Request request) {
        WebhookService.Decoded decoded = service.decode(request);
        if (decoded.reply() != null) {
            return CompletableFuture.completedFuture(decoded.reply());
        }
        PodSpec pod = decoded.pod();
        DraMode.Choice choice = dra.choose(pod);
        if (choice instanceof DraMode.DevicePlugin) {
            return CompletableFuture.completedFuture(service.decide(request, pod));
        }
        if (choice instanceof DraMode.Invalid invalid) {
            return CompletableFuture.completedFuture(format(request, pod, new DraAdmission.Denied(invalid.message())));
        }
        return dra.admit(pod, ExistingClaimsJson.of(request.object()), request.dryRun())
                .thenApply(result -> format(request, pod, result))
                .exceptionally(e -> {
                    LOG.error("webhook uid={} ns={}: DRA admission failed", request.uid(), request.namespace(), e);
                    return service.failed(request, 500, "internal error: " + e);
                });
    }

    private WebhookReply format(Request request, PodSpec pod, DraAdmission.Result result) {
        String who = pod.namespace() + "/" + (pod.name().isEmpty() ? "<generated>" : pod.name());
        if (result instanceof DraAdmission.Allowed a) {
            LOG.info("webhook {} uid={}: DRA: {} ({} patch ops, {} warnings)", who, request.uid(), a.detail(),
                    a.patch().size(), a.warnings().size());
            return WebhookService.reply(Outcome.ALLOWED,
                    responses.allowed(request.apiVersion(), request.uid(), "", a.patch(), a.warnings()));
        }
        if (result instanceof DraAdmission.Denied d) {
            LOG.info("webhook {} uid={}: DRA: denied: {}", who, request.uid(), d.message());
            return WebhookService.reply(Outcome.DENIED, responses.decision(request.apiVersion(), request.uid(),
                    new io.vgpu.gateway.core.webhook.AdmissionDecision.Denied(d.message())));
        }
        if (result instanceof DraAdmission.Errored e) {
            LOG.warn("webhook {} uid={}: DRA: errored: {}", who, request.uid(), e.message());
            return WebhookService.reply(Outcome.ERRORED,
                    responses.errored(request.apiVersion(), request.uid(), 500, e.message()));
        }
        String reason = ((DraAdmission.Unavailable) result).reason();
        LOG.warn("webhook {} uid={}: DRA: {}; answering per failurePolicy", who, request.uid(), reason);
        return service.failed(request, 503, reason);
    }
}
