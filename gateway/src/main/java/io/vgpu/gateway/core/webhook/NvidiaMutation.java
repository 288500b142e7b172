package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.Quantity;
import io.vgpu.gateway.core.request.ResourceLookup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The NVIDIA per-container admission mutation (spec §5.4, HAMi {@code MutateAdmission}). In order:
 * <ol>
 *   <li>a memory percentage (limits, else requests) whose value is outside 0–100 rejects the
 *       container: {@code invalid <pctName> value <v> in container <ctr>: must be an integer between 0 and 100};</li>
 *   <li>a priority in <b>limits</b> appends env {@code CUDA_TASK_PRIORITY=<value>};</li>
 *   <li>a {@code gpuCorePolicy} other than "" and {@code default} appends env
 *       {@code GPU_CORE_UTILIZATION_POLICY=<policy>} to every container, GPU or not;</li>
 *   <li>the container has a resource when its limits hold the count; else, when its limits hold the
 *       core, memory or percentage name and {@code defaultGPUNum > 0}, {@code limits[count] =
 *       defaultGPUNum} is inserted and it has a resource;</li>
 *   <li>exclusive-core default: count present (limits or requests), core absent (both), and the
 *       container is exclusive (percentage present and equal to 100; or, without a percentage, no
 *       memory name configured or no memory given) ⇒ {@code limits[core] = 100} and it has a resource;</li>
 *   <li>with a resource, an unset pod {@code runtimeClassName} becomes the configured one (if any);</li>
 *   <li>without a resource and with {@code overwriteEnv}, env {@code NVIDIA_VISIBLE_DEVICES=none} is appended.</li>
 * </ol>
 * {@code defaultMemory} and {@code defaultCores} are never written into the pod. Pure and thread-safe.
 */
public final class NvidiaMutation {

    /** Env carrying the task priority to hami-core. */
    static final String TASK_PRIORITY_ENV = "CUDA_TASK_PRIORITY";
    /** Env carrying the core utilisation policy to hami-core. */
    static final String CORE_POLICY_ENV = "GPU_CORE_UTILIZATION_POLICY";
    /** Env hiding every GPU from a container that asked for none. */
    static final String VISIBLE_DEVICES_ENV = "NVIDIA_VISIBLE_DEVICES";

    private static final String EXCLUSIVE_CORES = "100";

    private final NvidiaConfig config;

    /** @param config the NVIDIA device config */
    public NvidiaMutation(NvidiaConfig config) {
        this.config = config;
    }

    /**
     * Mutates one container.
     *
     * @param container           the container as it is now
     * @param podRuntimeClassName the pod's {@code spec.runtimeClassName} so far (null = unset)
     * @return the mutated container, or a rejection
     */
    public ContainerMutation mutate(Container container, String podRuntimeClassName) {
        Optional<String> invalid = invalidPercentage(container);
        if (invalid.isPresent()) {
            return new ContainerMutation.Rejected(invalid.get());
        }
        Map<String, String> limits = new LinkedHashMap<>(container.limits());
        List<Container.EnvVar> env = new ArrayList<>(container.env());

        if (ResourceLookup.inLimits(container, config.resourcePriorityName())) {
            Quantity.parse(limits.get(config.resourcePriorityName())).value().ifPresent(
                    p -> env.add(new Container.EnvVar(TASK_PRIORITY_ENV, Long.toString(p))));
        }
        if (!config.gpuCorePolicy().isEmpty() && !config.gpuCorePolicy().equals(NvidiaConfig.DEFAULT_CORE_POLICY)) {
            env.add(new Container.EnvVar(CORE_POLICY_ENV, config.gpuCorePolicy()));
        }

        boolean hasResource = ResourceLookup.inLimits(container, config.resourceCountName());
        if (!hasResource && asksWithoutCount(container) && config.defaultGPUNum() > 0
                && !config.resourceCountName().isEmpty()) {
            limits.put(config.resourceCountName(), Quantity.binarySI(config.defaultGPUNum()));
            hasResource = true;
        }
        Container withCount = new Container(container.name(), limits, container.requests(), container.privileged(),
                container.env());
        if (needsExclusiveCores(withCount)) {
            limits.put(config.resourceCoreName(), EXCLUSIVE_CORES);
            hasResource = true;
        }

        String runtimeClassName = podRuntimeClassName;
        if (hasResource && runtimeClassName == null && !config.runtimeClassName().isEmpty()) {
            runtimeClassName = config.runtimeClassName();
        }
        if (!hasResource && config.overwriteEnv()) {
            env.add(new Container.EnvVar(VISIBLE_DEVICES_ENV, "none"));
        }
        Container after = new Container(container.name(), limits, container.requests(), container.privileged(), env);
        return new ContainerMutation.Mutated(after, hasResource, runtimeClassName);
    }

    /** Step 1; an unparseable percentage (never seen by HAMi: the decoder rejects it) is rejected too. */
    private Optional<String> invalidPercentage(Container container) {
        Optional<Quantity> pct = ResourceLookup.find(container, config.resourceMemoryPercentageName());
        if (pct.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong v = pct.get().value();
        if (v.isPresent() && v.getAsLong() >= 0 && v.getAsLong() <= 100) {
            return Optional.empty();
        }
        String shown = v.isPresent() ? Long.toString(v.getAsLong()) : pct.get().text();
        return Optional.of("invalid " + config.resourceMemoryPercentageName() + " value " + shown + " in container "
                + container.name() + ": must be an integer between 0 and 100");
    }

    private boolean asksWithoutCount(Container c) {
        return ResourceLookup.inLimits(c, config.resourceCoreName())
                || ResourceLookup.inLimits(c, config.resourceMemoryName())
                || ResourceLookup.inLimits(c, config.resourceMemoryPercentageName());
    }

    /** Step 5 ({@code defaultExclusiveCoreIfNeeded}). */
    private boolean needsExclusiveCores(Container c) {
        if (!ResourceLookup.present(c, config.resourceCountName())
                || config.resourceCoreName().isEmpty() || ResourceLookup.present(c, config.resourceCoreName())) {
            return false;
        }
        Optional<Quantity> pct = ResourceLookup.find(c, config.resourceMemoryPercentageName());
        if (pct.isPresent()) {
            return pct.get().value().orElse(-1) == 100;
        }
        return config.resourceMemoryName().isEmpty() || !ResourceLookup.present(c, config.resourceMemoryName());
    }
}
