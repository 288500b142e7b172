package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.MigUse;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.List;

/**
 * Test builders for device usage views and container requests, in the spirit of kube-scheduler's
 * {@code testing/wrappers.go}: {@code gpu("GPU-0").used(1).mem(2048, 8192).build()}. Defaults: an idle,
 * healthy {@code NVIDIA} card in {@code hami-core} mode, split 10, 8192 MiB, 100 cores, NUMA 0, index 0.
 */
public final class DeviceFixtures {

    private DeviceFixtures() {
    }

    /** A device builder with the defaults above. */
    public static Builder gpu(String id) {
        return new Builder(id);
    }

    /** A request for {@code nums} cards of {@code memreq} MiB and {@code cores} percent each. */
    public static ContainerRequest request(int nums, int memreq, int cores) {
        return new ContainerRequest(nums, Vendor.NVIDIA, memreq, ContainerRequest.NO_PERCENTAGE, cores);
    }

    /** A request for {@code nums} cards of {@code percent} % of their memory and {@code cores} percent each. */
    public static ContainerRequest percentRequest(int nums, int percent, int cores) {
        return new ContainerRequest(nums, Vendor.NVIDIA, 0, percent, cores);
    }

    /** A MIG profile with placements of {@code size} slices at the given starts. */
    public static MigProfile profile(String name, int memoryMB, int core, int size, int... starts) {
        List<MigPlacement> placements = new ArrayList<>();
        for (int start : starts) {
            placements.add(new MigPlacement(start, size));
        }
        return new MigProfile(name, memoryMB, core, size, placements);
    }

    /** Fluent device builder. */
    public static final class Builder {
        private final String id;
        private int index;
        private int used;
        private int count = 10;
        private int usedmem;
        private int totalmem = 8192;
        private int usedcores;
        private int totalcore = 100;
        private int numa;
        private String type = Vendor.NVIDIA;
        private boolean health = true;
        private String mode = "hami-core";
        private final List<MigProfile> profiles = new ArrayList<>();
        private final List<MigUse> migUsed = new ArrayList<>();

        private Builder(String id) {
            this.id = id;
        }

        public Builder index(int i) {
            index = i;
            return this;
        }

        public Builder used(int slots) {
            used = slots;
            return this;
        }

        public Builder count(int split) {
            count = split;
            return this;
        }

        public Builder mem(int usedMiB, int totalMiB) {
            usedmem = usedMiB;
            totalmem = totalMiB;
            return this;
        }

        public Builder cores(int usedPercent, int totalPercent) {
            usedcores = usedPercent;
            totalcore = totalPercent;
            return this;
        }

        public Builder numa(int node) {
            numa = node;
            return this;
        }

        public Builder type(String model) {
            type = model;
            return this;
        }

        public Builder unhealthy() {
            health = false;
            return this;
        }

        public Builder mode(String m) {
            mode = m;
            return this;
        }

        /** Switches to MIG mode with these profiles. */
        public Builder mig(MigProfile... migProfiles) {
            mode = "mig";
            profiles.addAll(List.of(migProfiles));
            return this;
        }

        /** Marks a placement as occupied by an existing instance. */
        public Builder migUsed(String profile, int start, int size) {
            migUsed.add(new MigUse(profile, new MigPlacement(start, size)));
            return this;
        }

        public DeviceUsage build() {
            return new DeviceUsage(id, index, used, count, usedmem, totalmem, usedcores, totalcore, numa, type, health,
                    mode, profiles, migUsed);
        }
    }
}
