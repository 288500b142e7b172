package io.vgpu.state.model;

import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.vgpu.state.model.DeviceFixtures.pick;
import static org.assertj.core.api.Assertions.assertThat;

class UsageAccountingTest {

    @Test
    void appContainersAddUpAndEachOccurrenceIsASlot() {
        List<DeviceGrant> grants = UsageAccounting.collapse(
                List.of(List.of(pick("b", 100, 10)), List.of(pick("b", 200, 20), pick("a", 50, 5))), 0);
        assertThat(grants).containsExactly(
                new DeviceGrant("a", Vendor.NVIDIA, 50, 5, 1),
                new DeviceGrant("b", Vendor.NVIDIA, 300, 30, 2));
    }

    @Test
    void initPeakWinsOverSmallerAppSumAndCountsOneSlot() {
        List<DeviceGrant> grants = UsageAccounting.collapse(
                List.of(List.of(pick("g", 500, 50)), List.of(pick("g", 300, 30)), List.of(pick("g", 100, 10))), 2);
        assertThat(grants).containsExactly(new DeviceGrant("g", Vendor.NVIDIA, 500, 50, 1));
    }

    @Test
    void appSumWinsOverSmallerInitPeak() {
        List<DeviceGrant> grants = UsageAccounting.collapse(
                List.of(List.of(pick("g", 100, 10)), List.of(pick("g", 300, 30)), List.of(pick("g", 300, 30))), 1);
        assertThat(grants).containsExactly(new DeviceGrant("g", Vendor.NVIDIA, 600, 60, 2));
    }

    @Test
    void initShrinkKeepsOnlyAppContainers() {
        List<List<ContainerDevice>> containers = List.of(List.of(pick("g", 20000, 10)), List.of(pick("g", 10000, 5)));
        assertThat(UsageAccounting.appOnly(containers, 1)).containsExactly(new DeviceGrant("g", Vendor.NVIDIA, 10000, 5, 1));
        assertThat(UsageAccounting.appOnly(List.of(List.of(pick("g", 1, 1))), 1)).isEmpty();
    }

    @Test
    void nodeUsageIgnoresUnknownDevicesAndKeepsRegistrationOrder() {
        GpuDevice second = GpuFixtures.card("g2").index(1).memMiB(1024).type("NVIDIA").build();
        GpuDevice first = GpuFixtures.card("g1").memMiB(1024).type("NVIDIA").build();
        List<DeviceUsage> usage = UsageAccounting.nodeUsage(List.of(second, first), List.of(
                List.of(new DeviceGrant("g1", Vendor.NVIDIA, 100, 10, 2), new DeviceGrant("stale", Vendor.NVIDIA, 9, 9, 1)),
                List.of(new DeviceGrant("g1", Vendor.NVIDIA, 100, 10, 0))));
        assertThat(usage).extracting(DeviceUsage::id).containsExactly("g2", "g1");
        assertThat(usage.get(1)).extracting(DeviceUsage::used, DeviceUsage::usedmem, DeviceUsage::usedcores)
                .containsExactly(3, 200, 20);
        assertThat(usage.get(0).used()).isZero();
    }
}
