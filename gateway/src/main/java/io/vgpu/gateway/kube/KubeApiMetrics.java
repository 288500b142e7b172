package io.vgpu.gateway.kube;

/**
 * Where {@link KubeApi} records each call to the Kubernetes API: how long it took and how it ended. The labels are
 * bounded: {@code resource} is the object kind of the path ({@code pods}, {@code pods/binding}, {@code nodes},
 * {@code events}), {@code code} the HTTP status, or for a call that got no answer one of {@link #TIMEOUT},
 * {@link #UNREACHABLE}, {@link #RATE_LIMITED} (the client-side QPS bound refused it) or {@link #OVERLOADED} (too
 * many calls in flight). Implementations must be thread-safe and must not block: calls complete on the HTTP
 * client's event loop.
 */
public interface KubeApiMetrics {

    /** No answer within the request timeout. */
    String TIMEOUT = "timeout";
    /** The transport failed (connection refused or reset, TLS, DNS). */
    String UNREACHABLE = "unreachable";
    /** Refused by the client-side rate limiter before it was sent. */
    String RATE_LIMITED = "rate_limited";
    /** Refused before it was sent: the bound of calls in flight was reached. */
    String OVERLOADED = "overloaded";

    /** Records nothing. */
    KubeApiMetrics NONE = (verb, resource, code, nanos) -> {
    };

    /**
     * One finished call.
     *
     * @param verb     the HTTP method
     * @param resource the object kind of the path (see {@link #resourceOf})
     * @param code     the HTTP status, or one of the constants above
     * @param nanos    from the call's start (rate-limiter wait included) to its end
     */
    void call(String verb, String resource, String code, long nanos);

    /**
     * The object kind of an API path: the segment after the version (or after {@code namespaces/<ns>}), plus a
     * subresource when the path has one: {@code /api/v1/namespaces/a/pods/p/binding} → {@code pods/binding},
     * {@code /api/v1/nodes/n} → {@code nodes}, {@code /api/v1/namespaces/a/events} → {@code events}. Names never
     * reach a label.
     */
    static String resourceOf(String path) {
        String clean = path;
        int query = clean.indexOf('?');
        if (query >= 0) {
            clean = clean.substring(0, query);
        }
        String[] parts = clean.split("/");
        // "", "api", "v1", ... or "", "apis", group, version, ...
        int i = parts.length > 1 && "apis".equals(parts[1]) ? 4 : 3;
        if (i + 1 < parts.length && "namespaces".equals(parts[i])) {
            i += 2;
            if (i >= parts.length) {
                return "namespaces";
            }
        }
        if (i >= parts.length) {
            return "unknown";
        }
        String resource = parts[i];
        return i + 2 < parts.length ? resource + "/" + parts[i + 2] : resource;
    }
}
