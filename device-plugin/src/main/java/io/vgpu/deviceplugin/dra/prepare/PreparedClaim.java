package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.CdiSpec;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A claim as this driver prepared it: the answer the kubelet gets, the CDI spec that answer names,
 * the HAMi-core cache directory, and the shares the guard counts. This is also the checkpoint entry:
 * everything NodeUnprepareResources needs once the claim object is gone, and everything a repeated
 * NodePrepareResources answers with.
 *
 * @param ref          the claim
 * @param devices      the answer's devices, in allocation order
 * @param spec         the claim's CDI spec; empty when the claim has no device of this driver
 * @param specFileName its file name in the CDI directory ({@code k8s.gpu.vgpu.io-claim_<uid>.json})
 * @param claimDir     host path of the HAMi-core cache directory ({@code H/vgpu/claims/<uid>})
 * @param requests     main names of the requests with devices of this driver, in allocation order
 * @param shares       what the claim takes of each GPU (admin-access results take nothing)
 */
public record PreparedClaim(ClaimRef ref, List<KubeletDevice> devices, Optional<CdiSpec> spec, String specFileName,
                            String claimDir, List<String> requests, List<Share> shares) {

    /** Copies the lists. */
    public PreparedClaim {
        Objects.requireNonNull(ref, "ref");
        devices = List.copyOf(devices);
        spec = spec == null ? Optional.empty() : spec;
        Objects.requireNonNull(specFileName, "specFileName");
        Objects.requireNonNull(claimDir, "claimDir");
        requests = List.copyOf(requests);
        shares = List.copyOf(shares);
    }
}
