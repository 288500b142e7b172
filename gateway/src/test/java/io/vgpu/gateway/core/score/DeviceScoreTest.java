package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.fit.DeviceFixtures.gpu;
import static io.vgpu.gateway.core.fit.DeviceFixtures.percentRequest;
import static io.vgpu.gateway.core.fit.DeviceFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class DeviceScoreTest {

    static Stream<Arguments> scores() {
        DeviceUsage half = gpu("a").used(5).mem(4000, 8000).cores(50, 100).build();
        DeviceUsage model = gpu("m").type("NVIDIA-Tesla V100").used(5).mem(4000, 8000).cores(50, 100).build();
        return Stream.of(
                arguments("request counted when types are equal", half, request(1, 1000, 30), ScoringWeights.DEFAULT,
                        20.25f),
                arguments("request inert for a model-named device (HAMi v2.10)", model, request(1, 1000, 30),
                        ScoringWeights.DEFAULT, 15f),
                arguments("weights multiply each ratio", half, request(1, 1000, 30), new ScoringWeights(0, 2, 0),
                        16f),
                arguments("percentage memory uses 64-bit arithmetic",
                        gpu("big").count(1).mem(0, 30_000_000).build(), percentRequest(1, 100, 0),
                        new ScoringWeights(0, 0, 1), 10f),
                arguments("percentage 0 means memreq", half, new ContainerRequest(1, Vendor.NVIDIA, 2000, 0, 0),
                        new ScoringWeights(0, 0, 1), 7.5f),
                arguments("no slots means score 0", gpu("z").count(0).build(), request(1, 1, 1), ScoringWeights.DEFAULT,
                        0f),
                arguments("float32 rounding as in Go", gpu("t").used(1).count(3).mem(1, 3).cores(1, 3).build(), null,
                        ScoringWeights.DEFAULT, 10f * ((1f / 3f) + (1f / 3f) + (1f / 3f))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void scores(String name, DeviceUsage device, ContainerRequest request, ScoringWeights weights, float expected) {
        assertThat(DeviceScore.of(device, request, weights)).isEqualTo(expected);
        List<ContainerRequest> asList = request == null ? List.of() : List.of(request);
        assertThat(DeviceScore.of(device, asList, weights)).isEqualTo(expected);
    }
}
