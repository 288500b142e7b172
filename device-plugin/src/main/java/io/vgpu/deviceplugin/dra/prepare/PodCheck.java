package io.vgpu.deviceplugin.dra.prepare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Runs {@link ContainerRule} for the claims planned in one prepare call: reads every pod they are
 * reserved for (in parallel) and maps each violation back to the planned claims it involves. A pod
 * that no longer exists is skipped (nothing will start in it); a pod that cannot be read fails the
 * claims reserved for it, since the rule could not be checked (the kubelet retries).
 */
final class PodCheck {

    private final ClaimSource source;
    private final Collection<PreparedClaim> prepared;
    private final Map<String, PreparedClaim> planned;
    private final Map<String, ClaimObject> objects;

    /**
     * @param prepared claims prepared before this call (their requests count too)
     * @param planned  the claims planned in this call, by UID
     * @param objects  their API objects, by UID
     */
    PodCheck(ClaimSource source, Collection<PreparedClaim> prepared, Map<String, PreparedClaim> planned,
             Map<String, ClaimObject> objects) {
        this.source = source;
        this.prepared = prepared;
        this.planned = planned;
        this.objects = objects;
    }

    /** UID of a planned claim → why it fails the rule; empty when every container is fine. */
    CompletableFuture<Map<String, String>> run() {
        Map<String, Set<String>> podsToClaims = new LinkedHashMap<>();
        objects.forEach((uid, claim) -> claim.reservedFor().stream().filter(ClaimObject.Consumer::isPod)
                .forEach(pod -> podsToClaims.computeIfAbsent(claim.ref().namespace() + "/" + pod.name(),
                        k -> new LinkedHashSet<>()).add(uid)));
        Map<String, String> violations = new LinkedHashMap<>();
        List<CompletableFuture<Void>> reads = new ArrayList<>();
        podsToClaims.forEach((pod, uids) -> {
            int slash = pod.indexOf('/');
            String namespace = pod.substring(0, slash);
            reads.add(PrepareService.safely(() -> source.pod(namespace, pod.substring(slash + 1))).handle((found, e) -> {
                synchronized (violations) {
                    if (e != null) {
                        uids.forEach(uid -> violations.putIfAbsent(uid, "cannot read pod " + pod + " to check that none of "
                                + "its containers uses two vGPU requests: " + PrepareService.cause(e).getMessage()));
                    } else {
                        found.ifPresent(p -> check(p, violations));
                    }
                }
                return null;
            }));
        });
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(v -> violations);
    }

    private void check(PodClaims pod, Map<String, String> violations) {
        Map<String, List<String>> own = new LinkedHashMap<>();
        for (PreparedClaim p : prepared) {
            if (p.ref().namespace().equals(pod.namespace())) {
                own.put(p.ref().name(), p.requests());
            }
        }
        Map<String, String> uidByName = new LinkedHashMap<>();
        planned.forEach((uid, p) -> {
            if (p.ref().namespace().equals(pod.namespace())) {
                own.put(p.ref().name(), p.requests());
                uidByName.put(p.ref().name(), uid);
            }
        });
        for (ContainerRule.Violation v : ContainerRule.check(pod, own)) {
            v.claims().stream().map(uidByName::get).filter(uid -> uid != null)
                    .forEach(uid -> violations.putIfAbsent(uid, v.message()));
        }
    }
}
