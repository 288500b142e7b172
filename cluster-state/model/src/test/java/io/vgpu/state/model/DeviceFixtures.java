package io.vgpu.state.model;

import java.util.List;

/** Builder for {@link DeviceUsage} test values: {@code card("gpu0").mem(8000).used(1, 2000, 30).build()}. */
final class DeviceFixtures {

    private String id;
    private int index;
    private int used;
    private int count = 10;
    private int usedmem;
    private int totalmem = 8000;
    private int usedcores;
    private int totalcore = 100;
    private boolean health = true;

    private DeviceFixtures(String id) {
        this.id = id;
    }

    static DeviceFixtures card(String id) {
        return new DeviceFixtures(id);
    }

    DeviceFixtures mem(int total) {
        this.totalmem = total;
        return this;
    }

    DeviceFixtures split(int n) {
        this.count = n;
        return this;
    }

    DeviceFixtures cores(int total) {
        this.totalcore = total;
        return this;
    }

    DeviceFixtures used(int slots, int mem, int cores) {
        this.used = slots;
        this.usedmem = mem;
        this.usedcores = cores;
        return this;
    }

    DeviceFixtures unhealthy() {
        this.health = false;
        return this;
    }

    DeviceUsage build() {
        return new DeviceUsage(id, index, used, count, usedmem, totalmem, usedcores, totalcore, 0, "NVIDIA", health,
                "hami-core", List.of(), List.of());
    }

    static ContainerDevice pick(String uuid, int mem, int cores) {
        return new ContainerDevice(0, uuid, Vendor.NVIDIA, mem, cores);
    }
}
