package io.vgpu.deviceplugin.mig;

import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.mig.NvmlMigProfile;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.GpuInstanceProfile;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.MigMode;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.state.model.MigPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * One GPU's MIG operations as dynamic MIG uses them, over hamicore's {@link Nvml}: MIG mode on,
 * exactly one GPU + compute instance at a reserved placement (undone when a later step fails), the
 * MIG device's UUID, and the destroys. Expected failures are {@link Outcome.Failed} with a message
 * that names the GPU and the NVML call. Every method BLOCKS (JNI): call on the MIG worker only.
 */
final class MigHardware {

    private static final Logger LOG = LoggerFactory.getLogger(MigHardware.class);

    private final Nvml nvml;

    MigHardware(Nvml nvml) {
        this.nvml = nvml;
    }

    /** The profiles NVML reports for GPU {@code index}, in the core's terms (none without MIG). */
    List<NvmlMigProfile> profiles(int index) {
        return nvml.gpuInstanceProfiles(index).stream().map(MigHardware::profile).toList();
    }

    private static NvmlMigProfile profile(GpuInstanceProfile p) {
        return new NvmlMigProfile(p.name(), p.id(), p.sliceCount(), p.instanceCount(), p.multiprocessorCount(),
                p.memoryMiB(), p.placements().stream().map(pl -> new MigPlacement(pl.start(), pl.size())).toList());
    }

    /** Turns MIG mode on when it is off; a change NVML leaves pending (the GPU needs a reset) is a failure. */
    Outcome<Boolean> ensureMigMode(int index, String gpu) {
        try {
            MigMode mode = nvml.migMode(index);
            if (mode.enabled() && mode.pendingEnabled()) {
                return Outcome.ok(false);
            }
            if (mode.enabled()) {
                return Outcome.failed("GPU " + gpu + ": MIG mode is being disabled (pending a GPU reset)");
            }
            if (!mode.pendingEnabled()) {
                nvml.setMigMode(index, true);
                LOG.info("GPU {}: MIG mode enabled", gpu);
            }
            MigMode after = nvml.migMode(index);
            return after.enabled() ? Outcome.ok(true)
                    : Outcome.failed("GPU " + gpu + ": MIG mode enable is pending; the GPU needs a reset (nvidia-smi -r) "
                    + "before dynamic MIG can use it");
        } catch (NvmlException e) {
            return Outcome.failed("GPU " + gpu + ": cannot enable MIG mode: " + e.getMessage());
        }
    }

    /**
     * Creates the GPU instance of {@code profile} at exactly the key's placement and a compute instance
     * spanning it; undoes the GPU instance when a later step fails.
     */
    Outcome<RealizedMig> create(int index, MigKey key, NvmlMigProfile profile) {
        InstancePlacement placement = new InstancePlacement(key.placement().start(), key.placement().size());
        int gi;
        try {
            gi = nvml.createGpuInstance(index, profile.nvmlId(), placement);
        } catch (NvmlException e) {
            return Outcome.failed("cannot create MIG " + key + ": " + e.getMessage());
        }
        int ci;
        try {
            ci = nvml.createComputeInstance(index, gi, GpuInstanceProfile.computeProfileFor(profile.sliceCount()));
        } catch (NvmlException e) {
            destroy(index, gi, -1, key);
            return Outcome.failed("cannot create the compute instance of MIG " + key + ": " + e.getMessage());
        }
        Optional<String> uuid;
        try {
            uuid = migUuid(index, gi, ci);
        } catch (NvmlException e) {
            uuid = Optional.empty();
            LOG.warn("MIG {}: cannot list MIG devices: {}", key, e.getMessage());
        }
        if (uuid.isEmpty()) {
            destroy(index, gi, ci, key);
            return Outcome.failed("MIG " + key + " was created but NVML shows no MIG device for GPU instance " + gi);
        }
        return Outcome.ok(new RealizedMig(key, gi, ci, uuid.get(), true));
    }

    /** The UUID of the MIG device of GPU instance {@code gi} and compute instance {@code ci}. */
    Optional<String> migUuid(int index, int gi, int ci) {
        return nvml.migDevices(index).stream().filter(d -> d.gpuInstanceId() == gi && d.computeInstanceId() == ci)
                .map(MigDevice::uuid).findFirst();
    }

    /** The GPU instances on GPU {@code index}. */
    List<GpuInstance> instances(int index) {
        return nvml.gpuInstances(index);
    }

    /**
     * Destroys compute instance {@code ci} (when not negative) and GPU instance {@code gi}; instances
     * already gone count as destroyed.
     *
     * @return true when nothing of them is left
     */
    boolean destroy(int index, int gi, int ci, Object what) {
        try {
            if (ci >= 0) {
                try {
                    nvml.destroyComputeInstance(index, gi, ci);
                } catch (NvmlException e) {
                    if (e.returnCode() != NvmlException.NOT_FOUND) {
                        throw e;
                    }
                }
            }
            nvml.destroyGpuInstance(index, gi);
            return true;
        } catch (NvmlException e) {
            if (e.returnCode() == NvmlException.NOT_FOUND) {
                return true;
            }
            LOG.warn("cannot destroy MIG {} (GPU instance {}, compute instance {}): {}", what, gi, ci, e.getMessage());
            return false;
        }
    }

    /** Destroys every compute and GPU instance on GPU {@code index}. */
    Outcome<Integer> destroyAll(int index, String gpu) {
        try {
            int destroyed = 0;
            for (GpuInstance gi : nvml.gpuInstances(index)) {
                for (int ci : gi.computeInstanceIds()) {
                    nvml.destroyComputeInstance(index, gi.id(), ci);
                }
                nvml.destroyGpuInstance(index, gi.id());
                destroyed++;
            }
            return Outcome.ok(destroyed);
        } catch (NvmlException e) {
            return Outcome.failed("GPU " + gpu + ": cannot reset its MIG instances: " + e.getMessage());
        }
    }

    /** Processes on the GPU or its MIG devices; an NVML error counts as busy (never reset a GPU in doubt). */
    boolean busy(int index, String gpu) {
        try {
            return nvml.runningProcessCount(index) > 0;
        } catch (NvmlException e) {
            LOG.info("GPU {}: cannot count its processes, treating it as busy: {}", gpu, e.getMessage());
            return true;
        }
    }
}
