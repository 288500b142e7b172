package io.vgpu.gateway.kube;

import java.time.Duration;
import java.util.Objects;

/**
 * How the gateway talks to the Kubernetes API.
 *
 * @param kubeconfig     path of a kubeconfig file; null or blank = auto-configure (in-cluster service
 *                       account, else {@code $KUBECONFIG}, else {@code ~/.kube/config})
 * @param context        kubeconfig context; null or blank = the current one
 * @param qps            sustained API calls per second of this client (HAMi's {@code --kube-qps}); {@code <= 0}
 *                       disables the limit
 * @param burst          calls allowed at once above the sustained rate ({@code --kube-burst})
 * @param requestTimeout timeout of every single API call
 * @param maxInFlight    API calls allowed in flight at once; beyond it a call fails at once as overloaded
 * @param maxRateWait    the longest a call waits for the rate limiter before failing as overloaded
 * @param retries        fabric8's own retries of a failed request (on connection errors and 5xx), 0 for none
 */
public record KubeClientConfig(String kubeconfig, String context, double qps, int burst, Duration requestTimeout,
                               int maxInFlight, Duration maxRateWait, int retries) {

    /** High defaults: the extender is on kube-scheduler's critical path (spec §15.3). */
    public static final KubeClientConfig DEFAULTS = new KubeClientConfig(null, null, 200, 400,
            Duration.ofSeconds(5), 512, Duration.ofSeconds(2), 1);

    /** Validates. */
    public KubeClientConfig {
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(maxRateWait, "maxRateWait");
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, got " + burst);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, got " + requestTimeout);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative, got " + retries);
        }
    }

    /** The same settings with another QPS and burst. */
    public KubeClientConfig withRate(double newQps, int newBurst) {
        return new KubeClientConfig(kubeconfig, context, newQps, newBurst, requestTimeout, maxInFlight, maxRateWait,
                retries);
    }

    /** The same settings with another request timeout. */
    public KubeClientConfig withRequestTimeout(Duration timeout) {
        return new KubeClientConfig(kubeconfig, context, qps, burst, timeout, maxInFlight, maxRateWait, retries);
    }
}
