package io.vgpu.gateway.webhook;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.dra.ClaimTranslator;
import io.vgpu.gateway.core.dra.DraConfig;
import io.vgpu.gateway.core.dra.DraMode;
import io.vgpu.gateway.core.dra.DraTranslation;
import io.vgpu.gateway.core.dra.ExistingClaims;
import io.vgpu.gateway.core.port.CardSizes;
import io.vgpu.gateway.core.port.ClaimTemplates;
import io.vgpu.gateway.core.port.NamespaceLabels;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.PatchOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The webhook's DRA path (issue 13 item 1): which pods take it ({@link DraMode}: pod annotation, namespace label
 * from the cache, cluster default), their translation ({@link ClaimTranslator}), the namespace quota as a ticket
 * ({@link QuotaTickets}) and the ResourceClaimTemplate ({@link ClaimTemplates}), in that order, so that a pod over
 * its quota leaves no template behind. A dry run translates only: no ticket, no template ({@code sideEffects:
 * NoneOnDryRun}). Non-blocking; the stage never completes exceptionally unless a collaborator breaks its contract.
 */
public final class DraAdmission {

    private final ClaimTranslator translator;
    private final DraConfig config;
    private final NamespaceLabels namespaces;
    private final CardSizes cardSizes;
    private final ClaimTemplates templates;
    private final QuotaTickets tickets;

    /**
     * @param nvidia     resource names and HAMi's defaults
     * @param config     the DeviceClass and the cluster default
     * @param namespaces namespace labels from a cache
     * @param cardSizes  card memory sizes in the cluster
     * @param templates  where templates are made
     * @param tickets    the namespace quota of translated pods
     */
    public DraAdmission(NvidiaConfig nvidia, DraConfig config, NamespaceLabels namespaces, CardSizes cardSizes,
                        ClaimTemplates templates, QuotaTickets tickets) {
        this.translator = new ClaimTranslator(nvidia, config);
        this.config = Objects.requireNonNull(config, "config");
        this.namespaces = Objects.requireNonNull(namespaces, "namespaces");
        this.cardSizes = Objects.requireNonNull(cardSizes, "cardSizes");
        this.templates = Objects.requireNonNull(templates, "templates");
        this.tickets = Objects.requireNonNull(tickets, "tickets");
    }

    /** The path {@code pod} takes. */
    DraMode.Choice choose(PodSpec pod) {
        return DraMode.of(pod.annotations(), namespaces.labels(pod.namespace()), config.draByDefault());
    }

    /** How a DRA admission ended, formatted by {@link WebhookService}. */
    sealed interface Result permits Allowed, Denied, Errored, Unavailable {
    }

    /** @param patch the pod's patch; @param warnings for {@code response.warnings}; @param detail for the log */
    record Allowed(List<PatchOp> patch, List<String> warnings, String detail) implements Result {
    }

    /** @param message a policy refusal (code 403) */
    record Denied(String message) implements Result {
    }

    /** @param message the request could not be served as asked (code 500), whatever the failure policy */
    record Errored(String message) implements Result {
    }

    /** @param reason a dependency was unreachable: the failure policy answers */
    record Unavailable(String reason) implements Result {
    }

    /** Admits one pod that {@link #choose} sent to DRA. */
    CompletionStage<Result> admit(PodSpec pod, ExistingClaims existing, boolean dryRun) {
        DraTranslation t = translator.translate(pod, existing, cardSizes);
        if (t instanceof DraTranslation.NoGpu) {
            return done(new Allowed(List.of(), List.of(), "no GPU asked"));
        }
        if (t instanceof DraTranslation.Refused r) {
            return done(new Denied(r.message()));
        }
        DraTranslation.Translated translated = (DraTranslation.Translated) t;
        if (dryRun) {
            return done(new Allowed(translated.patch(), translated.warnings(),
                    "dry run: " + translated.template().name() + " not created, no quota ticket"));
        }
        return tickets.issue(pod.namespace(), translated.memoryMiB(), translated.cores())
                .thenCompose(ticket -> afterQuota(pod, translated, ticket));
    }

    private CompletionStage<Result> afterQuota(PodSpec pod, DraTranslation.Translated t, QuotaTickets.Outcome ticket) {
        List<PatchOp> patch = new ArrayList<>(t.patch());
        if (ticket instanceof QuotaTickets.Outcome.Refused refused) {
            return done(new Denied(refused.message()));
        }
        if (ticket instanceof QuotaTickets.Outcome.Unavailable unavailable) {
            return done(new Unavailable("quota tickets: " + unavailable.reason()));
        }
        if (ticket instanceof QuotaTickets.Outcome.Granted granted) {
            patch.add(ClaimTranslator.annotationOp(pod, QuotaTickets.ANNOTATION, granted.annotationValue()));
        }
        return templates.ensure(t.template()).thenApply(outcome -> afterTemplate(t, patch, outcome));
    }

    private static Result afterTemplate(DraTranslation.Translated t, List<PatchOp> patch,
                                        ClaimTemplates.Outcome outcome) {
        if (outcome instanceof ClaimTemplates.Outcome.Created) {
            return new Allowed(patch, t.warnings(), "created " + where(t));
        }
        if (outcome instanceof ClaimTemplates.Outcome.Existed) {
            return new Allowed(patch, t.warnings(), "reused " + where(t));
        }
        if (outcome instanceof ClaimTemplates.Outcome.Conflict c) {
            return new Errored(c.message());
        }
        return new Unavailable("ResourceClaimTemplate " + where(t) + ": "
                + ((ClaimTemplates.Outcome.Failed) outcome).reason());
    }

    private static String where(DraTranslation.Translated t) {
        return t.template().namespace() + "/" + t.template().name();
    }

    private static CompletionStage<Result> done(Result r) {
        return CompletableFuture.completedFuture(r);
    }
}
