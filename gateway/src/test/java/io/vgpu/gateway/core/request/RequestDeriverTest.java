package io.vgpu.gateway.core.request;

import io.vgpu.gateway.core.PodFixtures.ContainerBuilder;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.PodFixtures.ctr;
import static io.vgpu.gateway.core.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class RequestDeriverTest {

    private static final String GPU = "nvidia.com/gpu";
    private static final String MEM = "nvidia.com/gpumem";
    private static final String PCT = "nvidia.com/gpumem-percentage";
    private static final String CORES = "nvidia.com/gpucores";
    private static final NvidiaConfig CHART = NvidiaConfig.defaults();

    private static ContainerRequest req(int nums, int mem, int pct, int cores) {
        return new ContainerRequest(nums, Vendor.NVIDIA, mem, pct, cores);
    }

    private static NvidiaConfig with(int defaultMemory, int defaultCores, int memoryFactor) {
        return new NvidiaConfig(GPU, MEM, PCT, CORES, "nvidia.com/priority", false, defaultMemory, defaultCores, 1,
                memoryFactor, "default", "");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                arguments(named("count only: whole card", ctr("c").limit(GPU, "1")), CHART, req(1, 0, 100, 0)),
                arguments(named("count from requests", ctr("c").request(GPU, "2")), CHART, req(2, 0, 100, 0)),
                arguments(named("limits win per key", ctr("c").limit(GPU, "1").request(GPU, "3")
                        .request(MEM, "2048")), CHART, req(1, 2048, 101, 0)),
                arguments(named("count not an integer", ctr("c").limit(GPU, "500m")), CHART, null),
                arguments(named("count 1.0 is not AsInt64", ctr("c").limit(GPU, "1.0")), CHART, null),
                arguments(named("count zero", ctr("c").limit(GPU, "0")), CHART, null),
                arguments(named("count negative", ctr("c").limit(GPU, "-1")), CHART, null),
                arguments(named("count unparseable", ctr("c").limit(GPU, "one")), CHART, null),
                arguments(named("count saturates at int32", ctr("c").limit(GPU, "99999999999")), CHART,
                        req(Integer.MAX_VALUE, 0, 100, 0)),
                arguments(named("no count at all", ctr("c").limit(MEM, "1024")), CHART, null),
                arguments(named("memory in MiB", ctr("c").limit(GPU, "2").limit(MEM, "4096")), CHART,
                        req(2, 4096, 101, 0)),
                arguments(named("byte-scale memory drops the container", ctr("c").limit(GPU, "1").limit(MEM, "16Gi")),
                        CHART, null),
                arguments(named("negative memory drops the container", ctr("c").limit(GPU, "1").limit(MEM, "-1")),
                        CHART, null),
                arguments(named("fractional memory drops the container", ctr("c").limit(GPU, "1").limit(MEM, "1.5")),
                        CHART, null),
                arguments(named("int32 max memory with factor 1", ctr("c").limit(GPU, "1").limit(MEM, "2147483647")),
                        CHART, req(1, Integer.MAX_VALUE, 101, 0)),
                arguments(named("factor 2 overflow bound", ctr("c").limit(GPU, "1").limit(MEM, "1073741824")),
                        with(0, 0, 2), null),
                arguments(named("factor 2 just below the bound", ctr("c").limit(GPU, "1").limit(MEM, "1073741823")),
                        with(0, 0, 2), req(1, 2147483646, 101, 0)),
                arguments(named("factor 0 acts as 1", ctr("c").limit(GPU, "1").limit(MEM, "100")), with(0, 0, 0),
                        req(1, 100, 101, 0)),
                arguments(named("percentage", ctr("c").limit(GPU, "1").limit(PCT, "50")), CHART, req(1, 0, 50, 0)),
                arguments(named("percentage clamped", ctr("c").limit(GPU, "1").limit(PCT, "150")), CHART,
                        req(1, 0, 100, 0)),
                arguments(named("percentage 0 ignored", ctr("c").limit(GPU, "1").limit(PCT, "0")), CHART,
                        req(1, 0, 100, 0)),
                arguments(named("negative percentage ignored", ctr("c").limit(GPU, "1").limit(PCT, "-5")), CHART,
                        req(1, 0, 100, 0)),
                arguments(named("fractional percentage ignored", ctr("c").limit(GPU, "1").limit(PCT, "50.5")), CHART,
                        req(1, 0, 100, 0)),
                arguments(named("memory and percentage both kept", ctr("c").limit(GPU, "1").limit(MEM, "2000")
                        .limit(PCT, "50")), CHART, req(1, 2000, 50, 0)),
                arguments(named("defaultMemory for count only", ctr("c").limit(GPU, "1")), with(512, 0, 1),
                        req(1, 512, 101, 0)),
                arguments(named("defaultMemory for gpumem 0", ctr("c").limit(GPU, "1").limit(MEM, "0")),
                        with(512, 0, 1), req(1, 512, 101, 0)),
                arguments(named("defaultMemory not used with a percentage", ctr("c").limit(GPU, "1").limit(PCT, "30")),
                        with(512, 0, 1), req(1, 0, 30, 0)),
                arguments(named("defaultCores", ctr("c").limit(GPU, "1")), with(0, 30, 1), req(1, 0, 100, 30)),
                arguments(named("explicit cores not clamped", ctr("c").limit(GPU, "1").limit(CORES, "150")),
                        with(0, 30, 1), req(1, 0, 100, 150)),
                arguments(named("unparseable cores keep the default", ctr("c").limit(GPU, "1").limit(CORES, "x")),
                        with(0, 30, 1), req(1, 0, 100, 30)),
                arguments(named("unconfigured memory name is ignored", ctr("c").limit(GPU, "1").limit("", "7")),
                        new NvidiaConfig(GPU, "", PCT, CORES, "", false, 0, 0, 1, 1, "", ""), req(1, 0, 100, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void derivesTheContainerRequest(ContainerBuilder container, NvidiaConfig config, ContainerRequest expected) {
        assertThat(new RequestDeriver(config).derive(container.build())).isEqualTo(Optional.ofNullable(expected));
    }

    @Test
    void podVectorListsInitContainersFirst() {
        PodSpec p = pod("p").init(ctr("init").limit(GPU, "1").limit(MEM, "100"))
                .container(ctr("cpu").limit("cpu", "1"))
                .container(ctr("gpu").limit(GPU, "2")).build();

        PodRequests requests = new RequestDeriver(CHART).podRequests(p);

        assertThat(requests.initCount()).isEqualTo(1);
        assertThat(requests.containers()).containsExactly(
                Map.of(Vendor.NVIDIA, req(1, 100, 101, 0)), Map.of(), Map.of(Vendor.NVIDIA, req(2, 0, 100, 0)));
        assertThat(requests.initContainers()).hasSize(1);
        assertThat(requests.appContainers()).hasSize(2);
        assertThat(requests.request(2, Vendor.NVIDIA)).contains(req(2, 0, 100, 0));
        assertThat(requests.request(1, Vendor.NVIDIA)).isEmpty();
        assertThat(requests.hasAny()).isTrue();
    }

    @Test
    void podWithoutGpuRequestsHasNone() {
        PodSpec p = pod("p").container(ctr("cpu").limit("cpu", "1").limit(MEM, "100")).build();

        assertThat(new RequestDeriver(CHART).podRequests(p).hasAny()).isFalse();
    }
}
