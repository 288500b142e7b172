package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.List;

/** Test builders for registered devices: {@code gpu("GPU-0").count(10).devmem(8192).build()}. */
final class GpuDeviceFixtures {

    private GpuDeviceFixtures() {
    }

    /** A healthy hami-core card with plugin defaults (split 10, 100 cores). */
    static Builder gpu(String id) {
        return new Builder(id);
    }

    static final class Builder {
        private final String id;
        private int index;
        private int count = 10;
        private int devmem = 8192;
        private int devcore = 100;
        private String type = "NVIDIA-Tesla V100-PCIE-32GB";
        private int numa;
        private String mode = "hami-core";
        private final List<MigProfile> profiles = new ArrayList<>();
        private boolean health = true;

        private Builder(String id) {
            this.id = id;
        }

        Builder index(int v) {
            index = v;
            return this;
        }

        Builder count(int v) {
            count = v;
            return this;
        }

        Builder devmem(int v) {
            devmem = v;
            return this;
        }

        Builder devcore(int v) {
            devcore = v;
            return this;
        }

        Builder type(String v) {
            type = v;
            return this;
        }

        Builder numa(int v) {
            numa = v;
            return this;
        }

        Builder mode(String v) {
            mode = v;
            return this;
        }

        Builder profile(MigProfile p) {
            profiles.add(p);
            return this;
        }

        Builder unhealthy() {
            health = false;
            return this;
        }

        GpuDevice build() {
            return new GpuDevice(id, index, count, devmem, devcore, type, numa, mode, profiles, health);
        }
    }
}
