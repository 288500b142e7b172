package io.vgpu.gateway.core.quota;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class QuotaGateTest {

    static ContainerDevice dev(String uuid, int mem) {
        return new ContainerDevice(0, uuid, Vendor.NVIDIA, mem, 0);
    }

    static QuotaBook book(long memLimit) {
        QuotaBook book = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
        book.setLimit("ns", "nvidia.com/gpumem", memLimit);
        return book;
    }

    static Stream<Arguments> candidates() {
        return Stream.of(
                arguments(named("first device within quota", List.of()), List.of(), dev("g0", 2000), 0, true),
                arguments(named("first device over quota", List.of()), List.of(), dev("g0", 2049), 0, false),
                arguments(named("earlier containers count", List.of(List.of(dev("g0", 1024)))), List.of(),
                        dev("g1", 1025), 0, false),
                arguments(named("current picks count", List.of()), List.of(dev("g1", 1024)), dev("g2", 1024), 0, true),
                arguments(named("second init container maxes against the first on the same card",
                        List.of(List.of(dev("g0", 1500)))), List.of(), dev("g0", 1500), 2, true),
                arguments(named("app container on the init card adds to nothing beyond the peak",
                        List.of(List.of(dev("g0", 1500)))), List.of(), dev("g0", 1000), 1, true),
                arguments(named("init peak on another card still counts",
                        List.of(List.of(dev("g0", 2100)))), List.of(), dev("g1", 100), 1, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("candidates")
    void checksTheCollapsedHypotheticalAllocation(List<List<ContainerDevice>> allocated, List<ContainerDevice> current,
                                                   ContainerDevice candidate, int initCount, boolean fits) {
        assertThat(book(2048).admitsCandidate("ns", allocated, current, candidate, initCount)).isEqualTo(fits);
    }

    @Test
    void leavesTheCallersListsUntouched() {
        List<List<ContainerDevice>> allocated = new ArrayList<>(List.of(List.of(dev("g0", 1))));
        List<ContainerDevice> current = new ArrayList<>(List.of(dev("g1", 1)));

        book(2048).admitsCandidate("ns", allocated, current, dev("g2", 1), 0);

        assertThat(allocated).hasSize(1);
        assertThat(current).hasSize(1);
    }

    @Test
    void noneAdmitsEverything() {
        assertThat(QuotaGate.NONE.admitsCandidate("ns", List.of(), List.of(), dev("g0", Integer.MAX_VALUE), 0))
                .isTrue();
    }
}
