package io.vgpu.deviceplugin.dra.prepare;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The API server as NodePrepareResources reads it (a port: fabric8 on a worker pool in the node
 * agent, a map in tests). Each stage completes within the implementation's timeout; a stage that
 * fails means "could not ask" (the claim fails with that message and the kubelet retries), an empty
 * answer means "does not exist". Thread-safe.
 */
public interface ClaimSource {

    /** The ResourceClaim {@code ref.namespace()/ref.name()} (any UID); empty when there is none. */
    CompletionStage<Optional<ClaimObject>> claim(ClaimRef ref);

    /** The pod {@code namespace/name}; empty when there is none. */
    CompletionStage<Optional<PodClaims>> pod(String namespace, String name);
}
