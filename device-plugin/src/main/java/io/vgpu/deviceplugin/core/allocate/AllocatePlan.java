package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.hook.HookPaths;

import java.util.List;
import java.util.Map;

/**
 * What one {@code Allocate} must do once the pod is known ({@link AllocatePlanner}). In both cases the
 * per-container cache directories listed are (re)created on the host first, as HAMi creates them while
 * it walks the containers, and {@link HookPaths#LOCK_DIR} is ensured when the list is not empty.
 */
public sealed interface AllocatePlan permits AllocatePlan.Serve, AllocatePlan.Refuse {

    /** Host directories to recreate (empty, mode 0777) before answering. */
    List<String> containerDirs();

    /**
     * Answer kubelet with {@code responses} after writing {@code remainingAnnotation} back to the pod's
     * {@code hami.io/vgpu-devices-to-allocate} (exactly one pod patch).
     *
     * @param responses           one answer per kubelet container request, in order
     * @param remainingAnnotation the re-encoded to-allocate value with the served entries emptied
     * @param containerDirs       cache directories of the served containers
     * @param takes               per request index, the annotated container it consumed (absent for
     *                            MIG pass-through requests); dynamic MIG realises these
     */
    record Serve(List<ContainerResponse> responses, String remainingAnnotation, List<String> containerDirs,
                 Map<Integer, ContainerTake> takes) implements AllocatePlan {

        /** Copies the collections. */
        public Serve {
            responses = List.copyOf(responses);
            containerDirs = List.copyOf(containerDirs);
            takes = Map.copyOf(takes);
        }
    }

    /**
     * Fail the call: mark the pod {@code hami.io/bind-phase=failed}, release its node lock, return
     * {@code message} to kubelet.
     *
     * @param message       the error, HAMi's text
     * @param containerDirs cache directories of the containers served before the failure
     */
    record Refuse(String message, List<String> containerDirs) implements AllocatePlan {

        /** Copies the list. */
        public Refuse {
            containerDirs = List.copyOf(containerDirs);
        }
    }
}
