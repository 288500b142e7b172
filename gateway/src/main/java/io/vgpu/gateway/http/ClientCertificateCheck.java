package io.vgpu.gateway.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Lets only kube-scheduler call the routes it guards ({@code /filter}, {@code /bind}, {@code /debug/state} when
 * served on the API port). The API listener <em>requests</em> a client certificate on every handshake and verifies
 * a presented one against {@code VGPU_TLS_CLIENT_CA_FILE} (an untrusted or expired certificate fails the handshake,
 * before any HTTP); the API server calls {@code /webhook} without one, which the handshake allows. This check then
 * refuses a guarded request whose connection presented no certificate, or one whose subject common name is not in
 * {@code VGPU_EXTENDER_CLIENT_NAMES}.
 *
 * <p>Refusals are answered by the route in its own protocol (the extender verbs: HTTP 200 with {@code Error},
 * which kube-scheduler shows in the pod's events, where a 4xx would reach it as a bare status code), counted by
 * reason ({@value #NO_CERTIFICATE}, {@value #NAME_NOT_ALLOWED}) and logged at most once a minute. Thread-safe.
 */
final class ClientCertificateCheck {

    /** Reason: the connection presented no client certificate. */
    static final String NO_CERTIFICATE = "no_certificate";
    /** Reason: the certificate is trusted but its common name is not allowed. */
    static final String NAME_NOT_ALLOWED = "name_not_allowed";

    private static final Logger LOG = LoggerFactory.getLogger(ClientCertificateCheck.class);

    private final Set<String> names;
    private final BiConsumer<String, String> counted;
    private final ThrottledWarning warning = new ThrottledWarning(LOG);

    /**
     * @param names   the allowed common names
     * @param counted told of every refusal: the endpoint and the reason
     */
    ClientCertificateCheck(List<String> names, BiConsumer<String, String> counted) {
        this.names = Set.copyOf(names);
        this.counted = counted;
    }

    /**
     * A route handler that passes allowed requests on and hands refused ones to {@code refuse} with the reason's
     * text (which must end the response).
     */
    Handler<RoutingContext> guard(String endpoint, BiConsumer<RoutingContext, String> refuse) {
        return ctx -> {
            Refusal refusal = refusal(ctx.request(), endpoint);
            if (refusal == null) {
                ctx.next();
                return;
            }
            counted.accept(endpoint, refusal.reason());
            log(ctx.request(), refusal);
            refuse.accept(ctx, refusal.message());
        };
    }

    /**
     * Why a request was refused.
     *
     * @param reason  {@value #NO_CERTIFICATE} or {@value #NAME_NOT_ALLOWED}
     * @param message the answer's text, for the caller's operator
     */
    record Refusal(String reason, String message) {
    }

    /** Why {@code request} may not call {@code endpoint}, or null when it may. */
    Refusal refusal(HttpServerRequest request, String endpoint) {
        X509Certificate client = clientCertificate(request.sslSession());
        if (client == null) {
            return new Refusal(NO_CERTIFICATE, "client certificate required: only kube-scheduler may call " + endpoint
                    + " (its extender tlsConfig certFile/keyFile, signed by the CA in VGPU_TLS_CLIENT_CA_FILE)");
        }
        String name = commonName(client);
        if (name == null || !names.contains(name)) {
            return new Refusal(NAME_NOT_ALLOWED, "client certificate " + client.getSubjectX500Principal().getName()
                    + " may not call " + endpoint + ": allowed common names are " + String.join(", ", names.stream()
                    .sorted().toList()) + " (VGPU_EXTENDER_CLIENT_NAMES)");
        }
        return null;
    }

    private static X509Certificate clientCertificate(SSLSession session) {
        if (session == null) {
            return null;
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? leaf : null;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** The subject's (last) CN, or null when it has none. */
    static String commonName(X509Certificate certificate) {
        try {
            List<Rdn> rdns = new LdapName(certificate.getSubjectX500Principal().getName()).getRdns();
            String cn = null;
            for (Rdn rdn : rdns) { // LdapName lists RDNs right to left; the most specific CN comes last
                if ("CN".equalsIgnoreCase(rdn.getType())) {
                    cn = rdn.getValue().toString();
                }
            }
            return cn;
        } catch (InvalidNameException e) {
            return null;
        }
    }

    private void log(HttpServerRequest request, Refusal refusal) {
        warning.warn(() -> "refused " + request.method() + " " + request.path() + " from " + request.remoteAddress()
                + ": " + refusal.message());
    }
}
