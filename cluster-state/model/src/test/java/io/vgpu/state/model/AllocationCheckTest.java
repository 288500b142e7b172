package io.vgpu.state.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.vgpu.state.model.DeviceFixtures.card;
import static io.vgpu.state.model.DeviceFixtures.pick;
import static org.assertj.core.api.Assertions.assertThat;

class AllocationCheckTest {

    @Test
    void acceptsAnAllocationThatStillFits() {
        PodAllocation alloc = new PodAllocation(List.of(List.of(pick("g", 4000, 50))), 0);
        assertThat(AllocationCheck.admits(List.of(card("g").used(1, 4000, 50).build()), alloc)).isTrue();
    }

    @Test
    void refusesWhenAnotherReplicaTookTheMemoryMeanwhile() {
        PodAllocation alloc = new PodAllocation(List.of(List.of(pick("g", 4000, 0))), 0);
        assertThat(AllocationCheck.admits(List.of(card("g").used(1, 4001, 0).build()), alloc)).isFalse();
    }

    @Test
    void appContainersAccumulateOnTheSameCard() {
        PodAllocation alloc = new PodAllocation(List.of(List.of(pick("g", 5000, 0)), List.of(pick("g", 5000, 0))), 0);
        assertThat(AllocationCheck.admits(List.of(card("g").build()), alloc)).isFalse();
    }

    @Test
    void initContainersEachStartFromTheNodeUsage() {
        PodAllocation alloc = new PodAllocation(List.of(List.of(pick("g", 6000, 0)), List.of(pick("g", 6000, 0)),
                List.of(pick("g", 6000, 0))), 2);
        assertThat(AllocationCheck.admits(List.of(card("g").build()), alloc)).isTrue();
    }

    @Test
    void refusesUnknownAndUnhealthyCards() {
        PodAllocation alloc = new PodAllocation(List.of(List.of(pick("g", 1, 0))), 0);
        assertThat(AllocationCheck.admits(List.of(card("other").build()), alloc)).isFalse();
        assertThat(AllocationCheck.admits(List.of(card("g").unhealthy().build()), alloc)).isFalse();
    }

    @Test
    void plusGrantsAddsSlotsMemoryAndCores() {
        List<DeviceUsage> after = AllocationCheck.plusGrants(List.of(card("g").build(), card("h").build()),
                List.of(new DeviceGrant("g", Vendor.NVIDIA, 100, 10, 2)));
        assertThat(after.get(0)).extracting(DeviceUsage::used, DeviceUsage::usedmem, DeviceUsage::usedcores)
                .containsExactly(2, 100, 10);
        assertThat(after.get(1).used()).isZero();
    }
}
