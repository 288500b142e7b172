package io.vgpu.gateway.webhook;

import io.vgpu.gateway.json.PodJson;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.KubeIdentity;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.NamespaceQuota;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.webhook.AdmissionReviewDecoder.MissingUid;
import io.vgpu.gateway.webhook.AdmissionReviewDecoder.Request;
import io.vgpu.gateway.webhook.AdmissionReviewDecoder.Review;
import io.vgpu.gateway.webhook.AdmissionReviewDecoder.Undecodable;
import io.vgpu.gateway.webhook.WebhookReply.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The mutating webhook's protocol edge, free of any HTTP framework: body bytes in, AdmissionReview out.
 * Applies controller-runtime's transport rules in its order (spec §5.2): empty body → code 400; body
 * over the limit → 413; undecodable → 400; all with HTTP 200 and the codes inside {@code response.status}.
 * Unlike controller-runtime, the {@code Content-Type} is not looked at: every body is read as JSON (the API
 * server sends {@code application/json}; anything else that is an AdmissionReview is answered as one).
 * Decoding is case-sensitive, as the API machinery's serializer (a {@code Request} field is not
 * {@code request}), and a repeated field keeps its last value. A review without {@code request.uid} gets HTTP
 * 400 (nothing to echo, STYLE.md §5). A namespace, or a pod name, that is no valid Kubernetes name is errored
 * 400. Otherwise the pod is decoded, the review's uid stands in for a missing pod uid (stable sharding across
 * replicas), and {@link WebhookDecider#decide} answers.
 *
 * <p>Internal errors (anything thrown while deciding) and overload follow the {@link FailurePolicy}:
 * {@code Fail} → errored (500 resp. 503), {@code Ignore} → allowed without a patch. A mutation error of
 * the core stays errored whatever the policy: it is HAMi's answer, not a failure.
 *
 * <p>Thread-safe and non-blocking, but pure CPU work whose cost grows with the body: callers on an event loop
 * run it on a worker. Logs each decision once.
 */
public final class WebhookService {

    /** The content type of every answer. */
    public static final String JSON = "application/json";

    private static final Logger LOG = LoggerFactory.getLogger(WebhookService.class);

    private final WebhookDecider decider;
    private final NamespaceQuota quota;
    private final FailurePolicy failurePolicy;
    private final long maxBodyBytes;
    private final AdmissionReviewDecoder decoder;
    private final AdmissionResponses responses;
    private final DraAdmission dra;

    /**
     * @param decider       the core's decision
     * @param quota         the namespace quota the decision reads (e.g. the QuotaBook fed by informers)
     * @param failurePolicy answer on internal error and overload
     * @param maxBodyBytes  largest accepted body
     */
    public WebhookService(WebhookDecider decider, NamespaceQuota quota, FailurePolicy failurePolicy,
                          long maxBodyBytes) {
        this(decider, quota, failurePolicy, maxBodyBytes, null);
    }

    /**
     * As above, with the DRA path ({@link #admit}): pods that target DRA are translated by {@code dra}, the others
     * take the HAMi path unchanged.
     *
     * @param dra the DRA path, null for none
     */
    public WebhookService(WebhookDecider decider, NamespaceQuota quota, FailurePolicy failurePolicy,
                          long maxBodyBytes, DraAdmission dra) {
        this.dra = dra;
        this.decider = Objects.requireNonNull(decider, "decider");
        this.quota = Objects.requireNonNull(quota, "quota");
        this.failurePolicy = Objects.requireNonNull(failurePolicy, "failurePolicy");
        this.maxBodyBytes = maxBodyBytes;
        ObjectMapper mapper = new ObjectMapper();
        this.decoder = new AdmissionReviewDecoder(mapper);
        this.responses = new AdmissionResponses(mapper);
    }

    /** The largest body this service accepts, in bytes. */
    public long maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Answers one {@code POST /webhook}.
     *
     * @param body the request body (possibly empty), read as JSON whatever its {@code Content-Type}
     */
    public WebhookReply review(byte[] body) {
        WebhookReply rejected = transportCheck(body);
        if (rejected != null) {
            return rejected;
        }
        Review review = decoder.decode(body);
        if (!(review instanceof Request request)) {
            return unusable(review);
        }
        try {
            return decide(request);
        } catch (RuntimeException e) {
            LOG.error("webhook uid={} ns={}: internal error, answering per failurePolicy {}", request.uid(),
                    request.namespace(), failurePolicy.wire(), e);
            return failed(request, 500, "internal error: " + e);
        }
    }

    /**
     * Answers one {@code POST /webhook} with the DRA path: as {@link #review}, except that a pod that targets DRA
     * ({@link DraAdmission#choose}) is translated to claims, which may wait for the quota tickets and the API
     * server (the stage completes on their threads). Without a DRA path it is {@link #review}.
     */
    public CompletionStage<WebhookReply> admit(byte[] body) {
        if (dra == null) {
            return CompletableFuture.completedFuture(review(body));
        }
        WebhookReply rejected = transportCheck(body);
        if (rejected != null) {
            return CompletableFuture.completedFuture(rejected);
        }
        Review review = decoder.decode(body);
        if (!(review instanceof Request request)) {
            return CompletableFuture.completedFuture(unusable(review));
        }
        try {
            return new DraReplies(this, dra, responses).admit(request);
        } catch (RuntimeException e) {
            LOG.error("webhook uid={} ns={}: internal error, answering per failurePolicy {}", request.uid(),
                    request.namespace(), failurePolicy.wire(), e);
            return CompletableFuture.completedFuture(failed(request, 500, "internal error: " + e));
        }
    }

    /**
     * Answers a {@code POST /webhook} that arrived past the in-flight bound, per the failure policy.
     * Only the envelope is decoded (to echo the uid); the pod is not looked at.
     */
    public WebhookReply overloaded(byte[] body) {
        WebhookReply rejected = transportCheck(body);
        if (rejected != null) {
            return rejected;
        }
        Review review = decoder.decode(body);
        if (!(review instanceof Request request)) {
            return unusable(review);
        }
        LOG.warn("webhook uid={} ns={}: overloaded, answering per failurePolicy {}", request.uid(),
                request.namespace(), failurePolicy.wire());
        WebhookReply reply = failed(request, 503, "gateway overloaded");
        return new WebhookReply(reply.httpStatus(), reply.body(), Outcome.OVERLOADED);
    }

    /**
     * Answers a request whose handling failed unexpectedly outside a decision (the review could not even be read):
     * code 500 without a uid, which the API server answers with its {@code failurePolicy}.
     */
    public WebhookReply failed(Throwable cause) {
        LOG.error("webhook: request not handled: {}", cause.toString(), cause);
        return reply(Outcome.ERRORED, responses.errored(AdmissionReviewDecoder.V1, "", 500,
                "internal error: " + cause));
    }

    /** Answers a body over {@link #maxBodyBytes()} (detected while reading it): code 413. */
    public WebhookReply tooLarge() {
        return badRequest(AdmissionReviewDecoder.V1, "", 413,
                "request entity is too large; limit is " + maxBodyBytes + " bytes");
    }

    private WebhookReply decide(Request request) {
        Decoded decoded = decode(request);
        return decoded.reply() != null ? decoded.reply() : decide(request, decoded.pod());
    }

    /** The pod of a review, or the reply that refuses an undecodable one. */
    record Decoded(PodSpec pod, WebhookReply reply) {
    }

    Decoded decode(Request request) {
        PodJson.Result decoded = PodJson.decode(request.object(), request.namespace(), request.name(), request.uid());
        if (decoded instanceof PodJson.Undecodable bad) {
            LOG.info("webhook uid={} ns={}: undecodable pod: {}", request.uid(), request.namespace(), bad.message());
            return new Decoded(null, reply(Outcome.ERRORED, responses.errored(request.apiVersion(), request.uid(),
                    400, bad.message())));
        }
        PodSpec pod = ((PodJson.Decoded) decoded).pod();
        String invalid = invalidNames(pod);
        if (invalid != null) {
            LOG.info("webhook uid={}: {}", request.uid(), invalid);
            return new Decoded(null, reply(Outcome.ERRORED, responses.errored(request.apiVersion(), request.uid(),
                    400, invalid)));
        }
        return new Decoded(pod, null);
    }

    /** The HAMi path's answer for a decoded pod. */
    WebhookReply decide(Request request, PodSpec pod) {
        AdmissionDecision decision = decider.decide(pod, quota);
        byte[] body = responses.decision(request.apiVersion(), request.uid(), decision);
        log(request, pod, decision);
        return reply(outcome(decision), body);
    }

    /**
     * Why the pod's namespace or name (when it has one yet: {@code generateName} leaves it empty at admission) is no
     * valid Kubernetes name, or null. The API server never sends such a review; the quota gate would read an
     * impossible namespace.
     */
    private static String invalidNames(PodSpec pod) {
        String problem = KubeIdentity.labelProblem(pod.namespace());
        if (problem != null) {
            return "namespace " + KubeIdentity.quote(pod.namespace()) + ": " + problem;
        }
        problem = pod.name().isEmpty() ? null : KubeIdentity.subdomainProblem(pod.name());
        return problem == null ? null : "pod name " + KubeIdentity.quote(pod.name()) + ": " + problem;
    }

    WebhookReply failed(Request request, int code, String message) {
        if (failurePolicy == FailurePolicy.FAIL) {
            return reply(Outcome.ERRORED, responses.errored(request.apiVersion(), request.uid(), code, message));
        }
        return reply(Outcome.FAILED_OPEN, responses.allowed(request.apiVersion(), request.uid(),
                message + "; admitted unchanged (failurePolicy Ignore)", List.of()));
    }

    private WebhookReply transportCheck(byte[] body) {
        if (body == null || body.length == 0) {
            return badRequest(AdmissionReviewDecoder.V1, "", 400, "request body is empty");
        }
        if (body.length > maxBodyBytes) {
            return tooLarge();
        }
        return null;
    }

    private WebhookReply unusable(Review review) {
        if (review instanceof Undecodable u) {
            return badRequest(u.apiVersion(), u.uid(), 400, u.message());
        }
        MissingUid m = (MissingUid) review;
        LOG.info("webhook: bad request: {}", m.message());
        return new WebhookReply(400, responses.errored(m.apiVersion(), "", 400, m.message()), Outcome.BAD_REQUEST);
    }

    private WebhookReply badRequest(String apiVersion, String uid, int code, String message) {
        LOG.info("webhook uid={}: bad request ({}): {}", uid, code, message);
        return reply(Outcome.BAD_REQUEST, responses.errored(apiVersion, uid, code, message));
    }

    static WebhookReply reply(Outcome outcome, byte[] body) {
        return new WebhookReply(200, body, outcome);
    }

    private static Outcome outcome(AdmissionDecision decision) {
        if (decision instanceof AdmissionDecision.Allowed) {
            return Outcome.ALLOWED;
        }
        return decision instanceof AdmissionDecision.Denied ? Outcome.DENIED : Outcome.ERRORED;
    }

    private static void log(Request request, PodSpec pod, AdmissionDecision decision) {
        String who = pod.namespace() + "/" + (pod.name().isEmpty() ? "<generated>" : pod.name());
        if (decision instanceof AdmissionDecision.Allowed allowed) {
            if (allowed.patch().isEmpty()) {
                LOG.debug("webhook {} uid={}: allowed unchanged {}", who, request.uid(), allowed.message());
            } else {
                LOG.info("webhook {} uid={}: mutated ({} patch ops, schedulerName={})", who, request.uid(),
                        allowed.patch().size(), allowed.podAfter().schedulerName());
            }
        } else {
            LOG.info("webhook {} uid={}: {} {}: {}", who, request.uid(),
                    decision instanceof AdmissionDecision.Denied ? "denied" : "errored", decision.code(),
                    decision.message());
        }
    }
}
