package io.vgpu.gateway.core.fit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class AnnotationFiltersTest {

    private static final String USE_TYPE = "nvidia.com/use-gputype";
    private static final String NOUSE_TYPE = "nvidia.com/nouse-gputype";
    private static final String USE_UUID = "nvidia.com/use-gpuuuid";
    private static final String NOUSE_UUID = "nvidia.com/nouse-gpuuuid";
    private static final String MODE = "nvidia.com/vgpu-mode";

    static Stream<Arguments> typeRule() {
        return Stream.of(
                arguments("lower-case item matches upper-case model", Map.of(USE_TYPE, "v100"), "NVIDIA-Tesla V100", true),
                arguments("items are trimmed with Go white space", Map.of(USE_TYPE, "\u00a0A100 "), "NVIDIA A100", true),
                arguments("a list of only empty items allows nothing", Map.of(USE_TYPE, ",,"), "NVIDIA A100", false),
                arguments("a deny list of only empty items denies nothing", Map.of(NOUSE_TYPE, " , "), "NVIDIA A100", true),
                arguments("deny list beats allow list", Map.of(USE_TYPE, "NVIDIA", NOUSE_TYPE, "a100"), "NVIDIA A100", false),
                arguments("allowed and not denied", Map.of(USE_TYPE, "NVIDIA", NOUSE_TYPE, "H100"), "NVIDIA A100", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void typeRule(String name, Map<String, String> annotations, String type, boolean allowed) {
        assertThat(AnnotationFilters.of(annotations).allowsType(type)).isEqualTo(allowed);
    }

    static Stream<Arguments> uuidRule() {
        return Stream.of(
                arguments("items trimmed, match exact", Map.of(USE_UUID, " GPU-a ,GPU-b"), "GPU-a", true),
                arguments("no substring match", Map.of(USE_UUID, "GPU-ab"), "GPU-a", false),
                arguments("case matters", Map.of(USE_UUID, "gpu-a"), "GPU-a", false),
                arguments("device id itself is not trimmed", Map.of(USE_UUID, "GPU-a"), " GPU-a", false),
                arguments("deny list applies even when allowed", Map.of(USE_UUID, "GPU-a", NOUSE_UUID, "GPU-a"), "GPU-a", false),
                arguments("blank deny list means no constraint", Map.of(NOUSE_UUID, " \t"), "GPU-a", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void uuidRule(String name, Map<String, String> annotations, String id, boolean allowed) {
        assertThat(AnnotationFilters.of(annotations).allowsUuid(id)).isEqualTo(allowed);
    }

    static Stream<Arguments> modeRule() {
        return Stream.of(
                arguments("absent allows any mode", Map.of(), "mig", true),
                arguments("value contains the mode", Map.of(MODE, "hami-core,mig"), "mig", true),
                arguments("mode must be a substring, not the other way round", Map.of(MODE, "mig"), "mig-x", false),
                arguments("empty value allows only the empty mode", Map.of(MODE, ""), "hami-core", false),
                arguments("the empty mode is in every value", Map.of(MODE, "mps"), "", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void modeRule(String name, Map<String, String> annotations, String mode, boolean allowed) {
        assertThat(AnnotationFilters.of(annotations).allowsMode(mode)).isEqualTo(allowed);
    }

    @Test
    void migIsExcludedOnlyByAModeValueWithoutMig() {
        assertThat(AnnotationFilters.of(Map.of()).excludesMig()).isFalse();
        assertThat(AnnotationFilters.of(Map.of(MODE, "hami-core")).excludesMig()).isTrue();
        assertThat(AnnotationFilters.of(Map.of(MODE, "mig")).excludesMig()).isFalse();
    }

    @Test
    void numaBindFollowsGoParseBool() {
        assertThat(AnnotationFilters.of(Map.of("nvidia.com/numa-bind", "T")).numaBind()).isTrue();
        assertThat(AnnotationFilters.of(Map.of("nvidia.com/numa-bind", "yes")).numaBind()).isFalse();
        assertThat(AnnotationFilters.numaBindEnabled(null)).isFalse();
    }

    @Test
    void cordonListIsTrimmedAndSkipsEmpties() {
        assertThat(AnnotationFilters.cordonedUuids(" GPU-a, ,GPU-b,,")).containsExactlyInAnyOrder("GPU-a", "GPU-b");
        assertThat(AnnotationFilters.cordonedUuids("   ")).isEmpty();
        assertThat(AnnotationFilters.cordonedUuids(null)).isEmpty();
    }

    @Test
    void nullAnnotationsMeanNoSelectors() {
        Map<String, String> none = new HashMap<>();
        AnnotationFilters filters = AnnotationFilters.of(null);
        assertThat(filters.allowsType("anything")).isTrue();
        assertThat(filters.allowsUuid("GPU-x")).isTrue();
        assertThat(AnnotationFilters.of(none).allowsMode("mig")).isTrue();
    }
}
