package io.vgpu.deviceplugin.core.port;

import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.mig.RealizedMig;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The node's MIG hardware as {@code Allocate} needs it in dynamic-MIG mode. Implementations serialise
 * every change per node (and hold HAMi's MIG apply lock file meanwhile), never block the caller and
 * never fail their stages: expected problems (a placement taken, MIG mode pending a reset, an NVML
 * error) are {@link Outcome.Failed} with a message for kubelet.
 */
public interface MigPartitioner {

    /**
     * Realises exactly these reservations, all or none: an instance this node already manages for
     * the same key is returned as it is ({@code created=false}); the others are created at exactly
     * their placement (MIG mode enabled first when it is off). When one fails, every instance created
     * by this call is destroyed again before the failure is returned.
     *
     * @return one instance per key, in order
     */
    CompletionStage<Outcome<List<RealizedMig>>> realize(List<MigKey> reservations);

    /**
     * Destroys the instances among {@code realized} that were created for them ({@code created=true}):
     * the undo when the allocation could not be recorded on the pod. Failures are logged, never
     * returned (the reconciler reclaims what is left).
     */
    CompletionStage<Void> release(List<RealizedMig> realized);
}
