package io.vgpu.deviceplugin.dra.prepare;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One container, at most one vGPU request of this driver. HAMi-core holds one set of limits per
 * process ({@code CUDA_DEVICE_MEMORY_LIMIT_<i>} numbered from 0, one {@code CUDA_DEVICE_MEMORY_SHARED_CACHE}),
 * so two requests in one container would hand it two conflicting sets, and the runtime would keep
 * whichever it applied last. The driver knows because it reads the pods a claim is reserved for
 * ({@code status.reservedFor}): every container's {@code resources.claims[]}, resolved to claims, and
 * the extended-resource mappings. A container that references two requests of this driver (across
 * all of its pod's claims, or one claim entry without {@code request} whose claim has two) fails the
 * claims involved with a message that says how to ask instead ({@code count: N} in one request).
 * The gateway's webhook (issue 13) never builds such a pod; this catches claims written by hand. Pure.
 */
final class ContainerRule {

    private ContainerRule() {
    }

    /**
     * @param pod           the pod
     * @param ownRequests   ResourceClaim name → main names of its requests with devices of this driver,
     *                      for every claim of the pod's namespace known to be this driver's (being
     *                      prepared now or prepared before)
     * @return one violation per offending container
     */
    public static List<Violation> check(PodClaims pod, Map<String, List<String>> ownRequests) {
        List<Violation> out = new ArrayList<>();
        for (PodClaims.Container c : pod.containers()) {
            Set<String> used = new LinkedHashSet<>();
            Set<String> claims = new LinkedHashSet<>();
            for (PodClaims.Use use : c.uses()) {
                String claim = pod.claimNames().get(use.claim());
                List<String> own = claim == null ? null : ownRequests.get(claim);
                if (own == null) {
                    continue;
                }
                String request = mainRequest(use.request());
                for (String r : own) {
                    if (request.isEmpty() || request.equals(r)) {
                        used.add("claim " + claim + " request " + r);
                        claims.add(claim);
                    }
                }
            }
            List<String> extendedOwn = pod.extendedClaim().map(ownRequests::get).orElse(null);
            if (extendedOwn != null) {
                for (String request : c.extended()) {
                    if (extendedOwn.contains(mainRequest(request))) {
                        used.add("claim " + pod.extendedClaim().get() + " request " + mainRequest(request));
                        claims.add(pod.extendedClaim().get());
                    }
                }
            }
            if (used.size() > 1) {
                out.add(new Violation(List.copyOf(claims), "container " + c.name() + " of pod " + pod.namespace() + "/"
                        + pod.name() + " uses " + used.size() + " vGPU requests (" + String.join(", ", used)
                        + "); HAMi-core gives a container one set of limits: ask for several GPUs with count: N in one "
                        + "request, or give each request to another container"));
            }
        }
        return out;
    }

    private static String mainRequest(String request) {
        int slash = request.indexOf('/');
        return slash < 0 ? request : request.substring(0, slash);
    }

    /**
     * A container that breaks the rule.
     *
     * @param claims  the ResourceClaim names involved
     * @param message what is wrong and what to do
     */
    public record Violation(List<String> claims, String message) {
        /** Copies the list. */
        public Violation {
            claims = List.copyOf(claims);
            Objects.requireNonNull(message, "message");
        }
    }
}
