package io.vgpu.gateway.core.dra;

import io.vgpu.gateway.core.webhook.PatchOp;

import java.util.List;

/** What {@link ClaimTranslator} made of a pod that targets DRA. Formatted into an AdmissionReview at the edge. */
public sealed interface DraTranslation permits DraTranslation.NoGpu, DraTranslation.Translated,
        DraTranslation.Refused {

    /** The pod asks for no GPU: admitted unchanged. */
    record NoGpu() implements DraTranslation {
    }

    /**
     * The pod's GPU requests became one claim from {@code template}.
     *
     * @param template  the ResourceClaimTemplate to make sure of (never for a dry run)
     * @param patch     the JSON Patch turning the pod into its DRA form (claims in, extended resources out)
     * @param warnings  HAMi settings DRA cannot express, for the AdmissionReview's {@code warnings}
     * @param memoryMiB the pod's GPU memory for the quota: summed over containers and GPUs; the largest
     *                  alternative of a {@code firstAvailable} list
     * @param cores     the pod's GPU cores for the quota, summed over containers and GPUs
     */
    record Translated(ClaimTemplate template, List<PatchOp> patch, List<String> warnings, long memoryMiB, long cores)
            implements DraTranslation {

        /** Copies the lists. */
        public Translated {
            patch = List.copyOf(patch);
            warnings = List.copyOf(warnings);
        }
    }

    /** @param message why DRA cannot serve the pod as asked, in words the user can act on */
    record Refused(String message) implements DraTranslation {
    }
}
