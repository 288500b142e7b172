package io.vgpu.gateway.core.quota;

import io.vgpu.gateway.core.PodFixtures.PodBuilder;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.vgpu.gateway.core.PodFixtures.ctr;
import static io.vgpu.gateway.core.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class QuotaDemandTest {

    static final String GPU = "nvidia.com/gpu";
    static final String MEM = "nvidia.com/gpumem";
    static final String PCT = "nvidia.com/gpumem-percentage";
    static final String CORES = "nvidia.com/gpucores";
    static final RequestDeriver DERIVER = new RequestDeriver(NvidiaConfig.defaults());

    static Stream<Arguments> demands() {
        return Stream.of(
                arguments(named("memory times GPU count", pod("p").container(ctr("c").limit(GPU, "2")
                        .limit(MEM, "400").limit(CORES, "30"))), new QuotaDemand(800, 60)),
                arguments(named("app containers add up", pod("p").container(ctr("a").limit(GPU, "1").limit(MEM, "100"))
                        .container(ctr("b").limit(GPU, "1").limit(MEM, "200"))), new QuotaDemand(300, 0)),
                arguments(named("init containers peak, not sum", pod("p")
                        .init(ctr("i1").limit(GPU, "1").limit(MEM, "800"))
                        .init(ctr("i2").limit(GPU, "1").limit(MEM, "800"))
                        .container(ctr("a").limit(GPU, "1").limit(MEM, "500"))), new QuotaDemand(800, 0)),
                arguments(named("app sum above the init peak wins", pod("p")
                        .init(ctr("i").limit(GPU, "1").limit(MEM, "300").limit(CORES, "90"))
                        .container(ctr("a").limit(GPU, "1").limit(MEM, "200").limit(CORES, "10"))
                        .container(ctr("b").limit(GPU, "1").limit(MEM, "200").limit(CORES, "10"))),
                        new QuotaDemand(400, 90)),
                arguments(named("percentage-only memory is not charged", pod("p").container(ctr("c").limit(GPU, "1")
                        .limit(PCT, "50"))), new QuotaDemand(0, 0)),
                arguments(named("containers without GPUs add nothing", pod("p").container(ctr("c").limit("cpu", "1"))),
                        new QuotaDemand(0, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("demands")
    void computesTheAdmissionDemand(PodBuilder pod, QuotaDemand expected) {
        assertThat(QuotaDemand.of(DERIVER.podRequests(pod.build()), Vendor.NVIDIA)).isEqualTo(expected);
    }

    @Test
    void zeroDemandIsAdmittedEvenByAnExplicitZeroLimit() {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        book.setLimit("ns", MEM, 0);
        book.setLimit("ns", CORES, 0);

        assertThat(new QuotaDemand(0, 0).admittedBy(book, "ns")).isTrue();
        assertThat(new QuotaDemand(1, 0).admittedBy(book, "ns")).isFalse();
        assertThat(new QuotaDemand(0, 1).admittedBy(book, "ns")).isFalse();
    }

    @Test
    void memoryLimitIsScaledByTheMemoryFactor() {
        QuotaBook book = new QuotaBook(MEM, CORES, 2);
        book.setLimit("ns", MEM, 1000);
        book.addUsage("ns", 1500, 0);

        assertThat(new QuotaDemand(500, 0).admittedBy(book, "ns")).isTrue();
        assertThat(new QuotaDemand(501, 0).admittedBy(book, "ns")).isFalse();
    }

    @Test
    void usageWithoutALimitIsNotEnforced() {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        book.addUsage("ns", 10_000, 500);

        assertThat(new QuotaDemand(1_000_000, 1_000).admittedBy(book, "ns")).isTrue();
    }
}
