package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.NamespaceQuota;
import io.vgpu.gateway.core.quota.QuotaDemand;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.Quantity;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The mutating webhook's decision for one pod CREATE (spec §5.3, HAMi {@code webhook.Handle}), in
 * this exact order:
 * <ol>
 *   <li>a resource quantity Kubernetes cannot parse ⇒ errored 400 (HAMi's decoder fails);</li>
 *   <li>no regular containers ⇒ denied {@code pod has no containers};</li>
 *   <li>{@code schedulerName} set, not ours, and not a {@code default-scheduler} we may take over ⇒
 *       allowed {@code pod already has different scheduler assigned}, untouched;</li>
 *   <li>the first privileged container is remembered (init containers first);</li>
 *   <li>every init container, then every container, is mutated ({@link NvidiaMutation}); a rejection
 *       ⇒ errored 500 with its text;</li>
 *   <li>privileged container and a HAMi resource ⇒ denied {@code container <name> is privileged};</li>
 *   <li>HAMi resource and a configured scheduler name ⇒ {@code schedulerName} is set
 *       ({@link WebhookConfig#schedulerFor}); then a set {@code nodeName} ⇒ denied {@code pod has node assigned};</li>
 *   <li>the quota gate on the mutated pod ({@link QuotaDemand}) ⇒ denied {@code exceeding resource quota};</li>
 *   <li>allowed with a targeted patch of every mutation (none when nothing changed).</li>
 * </ol>
 * Pure and thread-safe; the quota is read once, without reservation (as in HAMi, two pods admitted
 * at once may both pass; Fit enforces the quota again).
 */
public final class WebhookDecider {

    /** Step 2 denial. */
    static final String NO_CONTAINERS = "pod has no containers";
    /** Step 3 message. */
    static final String FOREIGN_SCHEDULER = "pod already has different scheduler assigned";
    /** Step 7 denial. */
    static final String NODE_ASSIGNED = "pod has node assigned";
    /** Step 8 denial. */
    public static final String QUOTA_EXCEEDED = "exceeding resource quota";

    private final WebhookConfig config;
    private final NvidiaMutation mutation;
    private final RequestDeriver deriver;

    /** @param config scheduler names, force flag and the NVIDIA device config */
    public WebhookDecider(WebhookConfig config) {
        this.config = config;
        this.mutation = new NvidiaMutation(config.nvidia());
        this.deriver = new RequestDeriver(config.nvidia());
    }

    /**
     * Decides on one pod.
     *
     * @param pod   the pod from the AdmissionReview
     * @param quota the namespace quota (e.g. the {@link io.vgpu.gateway.core.quota.QuotaBook})
     * @return allowed (with the patch and the mutated pod), denied or errored
     */
    public AdmissionDecision decide(PodSpec pod, NamespaceQuota quota) {
        Optional<String> undecodable = undecodableQuantity(pod);
        if (undecodable.isPresent()) {
            return new AdmissionDecision.Errored(400, undecodable.get());
        }
        if (pod.containers().isEmpty()) {
            return new AdmissionDecision.Denied(NO_CONTAINERS);
        }
        if (hasForeignScheduler(pod)) {
            return new AdmissionDecision.Allowed(FOREIGN_SCHEDULER, List.of(), pod);
        }
        Optional<String> privileged = firstPrivileged(pod);

        Mutations m = new Mutations(pod.runtimeClassName());
        for (Container c : pod.initContainers()) {
            if (!m.apply(mutation, c, m.init)) {
                return new AdmissionDecision.Errored(500, m.error);
            }
        }
        for (Container c : pod.containers()) {
            if (!m.apply(mutation, c, m.app)) {
                return new AdmissionDecision.Errored(500, m.error);
            }
        }
        if (privileged.isPresent() && m.hasResource) {
            return new AdmissionDecision.Denied("container " + privileged.get() + " is privileged");
        }
        String schedulerName = pod.schedulerName();
        if (m.hasResource && !config.schedulerNames().isEmpty()) {
            schedulerName = config.schedulerFor(pod);
            if (!pod.nodeName().isEmpty()) {
                return new AdmissionDecision.Denied(NODE_ASSIGNED);
            }
        }
        PodSpec after = new PodSpec(pod.name(), pod.namespace(), pod.uid(), schedulerName, pod.nodeName(),
                m.runtimeClassName, pod.annotations(), pod.labels(), m.init, m.app);
        if (!fitsQuota(after, quota)) {
            return new AdmissionDecision.Denied(QUOTA_EXCEEDED);
        }
        return new AdmissionDecision.Allowed("", PodPatch.diff(pod, after), after);
    }

    private boolean hasForeignScheduler(PodSpec pod) {
        String name = pod.schedulerName();
        boolean takeOverDefault = name.equals(WebhookConfig.DEFAULT_SCHEDULER) && config.forceOverwriteDefaultScheduler();
        return !name.isEmpty() && !takeOverDefault && !config.isOwnScheduler(name);
    }

    private boolean fitsQuota(PodSpec after, NamespaceQuota quota) {
        NvidiaConfig nvidia = config.nvidia();
        if (nvidia.resourceMemoryName().isEmpty() && nvidia.resourceCoreName().isEmpty()) {
            return true; // nothing this vendor exposes can carry a quota
        }
        return QuotaDemand.of(deriver.podRequests(after), Vendor.NVIDIA).admittedBy(quota, after.namespace());
    }

    private static Optional<String> firstPrivileged(PodSpec pod) {
        return Stream.concat(pod.initContainers().stream(), pod.containers().stream())
                .filter(Container::privileged).map(Container::name).findFirst();
    }

    private static Optional<String> undecodableQuantity(PodSpec pod) {
        List<Container> all = new ArrayList<>(pod.initContainers());
        all.addAll(pod.containers());
        for (Container c : all) {
            for (Map<String, String> list : List.of(c.limits(), c.requests())) {
                for (Map.Entry<String, String> e : list.entrySet()) {
                    if (Quantity.parse(e.getValue()) instanceof Quantity.Invalid invalid) {
                        return Optional.of("container " + c.name() + ": resource " + e.getKey() + ": quantity \""
                                + e.getValue() + "\": " + invalid.reason());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Accumulates step 5 across containers. */
    private static final class Mutations {
        final List<Container> init = new ArrayList<>();
        final List<Container> app = new ArrayList<>();
        String runtimeClassName;
        boolean hasResource;
        String error;

        Mutations(String runtimeClassName) {
            this.runtimeClassName = runtimeClassName;
        }

        boolean apply(NvidiaMutation mutation, Container c, List<Container> into) {
            ContainerMutation result = mutation.mutate(c, runtimeClassName);
            if (result instanceof ContainerMutation.Rejected rejected) {
                error = rejected.message();
                return false;
            }
            ContainerMutation.Mutated done = (ContainerMutation.Mutated) result;
            into.add(done.after());
            runtimeClassName = done.runtimeClassName();
            hasResource |= done.hasResource();
            return true;
        }
    }
}
