package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * kube-controller-manager's {@code resourceclaim} controller on the creating side (spec §1.4, §1.5), as pure
 * functions: for a pod entry naming a template, the claim to create — the template's {@code spec.spec} and
 * {@code spec.metadata} copied, name {@code <pod>-<entry>-<5 characters>} (the controller's {@code
 * generateName}, the prefix cut to fit), annotation {@code resource.kubernetes.io/pod-claim-name: <entry>},
 * controlled by the pod (so it goes when the pod goes) — and the pod's {@code status.resourceClaimStatuses}
 * entry naming it. The deleting side is {@link ClaimDeallocation}.
 */
public final class ClaimController {

    /** The annotation naming the pod's claim entry on a claim made from a template. */
    public static final String POD_CLAIM_NAME = "resource.kubernetes.io/pod-claim-name";
    private static final int MAX_PREFIX = 57;

    private ClaimController() {
    }

    /**
     * The claim for {@code entry} of {@code pod}, made from {@code template}.
     *
     * @param suffix the random part of the generated name (5 lower-case alphanumerics upstream)
     */
    public static ResourceClaim claimFor(Pod pod, PodResourceClaim entry, ResourceClaimTemplate template,
                                         Supplier<String> suffix) {
        String prefix = pod.getMetadata().getName() + "-" + entry.getName();
        if (prefix.length() > MAX_PREFIX) {
            prefix = prefix.substring(0, MAX_PREFIX);
        }
        var templateMeta = template.getSpec().getMetadata();
        ResourceClaimBuilder b = new ResourceClaimBuilder().withNewMetadata()
                .withName((prefix + "-" + suffix.get()).toLowerCase(Locale.ROOT))
                .withNamespace(pod.getMetadata().getNamespace())
                .addToAnnotations(POD_CLAIM_NAME, entry.getName())
                .addNewOwnerReference().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                .endOwnerReference().endMetadata()
                .withSpec(template.getSpec().getSpec());
        if (templateMeta != null) {
            b.editMetadata().addToLabels(Nulls.map(templateMeta.getLabels()))
                    .addToAnnotations(Nulls.map(templateMeta.getAnnotations())).endMetadata();
        }
        return b.build();
    }

    /** {@code pod} with {@code status.resourceClaimStatuses} naming {@code claimName} for {@code entry}. */
    public static Pod withClaimStatus(Pod pod, String entry, String claimName) {
        return new PodBuilder(pod).editOrNewStatus().addNewResourceClaimStatus().withName(entry)
                .withResourceClaimName(claimName).endResourceClaimStatus().endStatus().build();
    }
}
