package io.vgpu.state.codec;

import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;

import static org.assertj.core.api.Assertions.assertThat;

/** The MIG allocations annotation, both ways (the decoder's cases come from the monitor, where it first lived). */
class MigAllocationsCodecTest {

    private static final String ENTRY = "{\"containerIndex\":1,\"deviceIndex\":0,\"gpuUUID\":\"GPU-1\","
            + "\"profile\":\"1g.10gb\",\"placement\":{\"start\":6,\"size\":1}";

    @Test
    void decodesReservationsAndRuntimeIdentity() {
        Decoded<List<MigAllocation>> d = MigAllocationsCodec.decode("[" + ENTRY + "},"
                + ENTRY.replace("\"containerIndex\":1", "\"containerIndex\":2")
                + ",\"migUUID\":\"MIG-x\",\"gpuInstanceID\":4294967295,\"computeInstanceID\":0,\"extra\":true}]");

        assertThat(d.isOk()).isTrue();
        assertThat(d.value()).containsExactly(
                new MigAllocation(1, 0, "GPU-1", "1g.10gb", 6, 1, "", OptionalLong.empty(), OptionalLong.empty()),
                new MigAllocation(2, 0, "GPU-1", "1g.10gb", 6, 1, "MIG-x", OptionalLong.of(4294967295L),
                        OptionalLong.of(0)));
    }

    @Test
    void keysMatchCaseInsensitivelyAsInGo() {
        Decoded<List<MigAllocation>> d = MigAllocationsCodec.decode("[{\"CONTAINERINDEX\":3,\"deviceindex\":1,"
                + "\"GpuUuid\":\"GPU-1\",\"Profile\":\"2g.20gb\",\"Placement\":{\"Start\":0,\"SIZE\":2}}]");

        assertThat(d.value()).singleElement().satisfies(a -> {
            assertThat(a.containerIndex()).isEqualTo(3);
            assertThat(a.deviceIndex()).isEqualTo(1);
            assertThat(a.profile()).isEqualTo("2g.20gb");
            assertThat(a.placementSize()).isEqualTo(2);
        });
    }

    static Stream<Arguments> empty() {
        return Stream.of(Arguments.of("absent", null), Arguments.of("empty", ""), Arguments.of("JSON null", "null"),
                Arguments.of("empty list", "[]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("empty")
    void noAllocations(String name, String annotation) {
        assertThat(MigAllocationsCodec.decode(annotation).value()).isEmpty();
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of("not JSON", "{not json", "invalid JSON"),
                Arguments.of("trailing garbage", "[] x", "invalid JSON"),
                Arguments.of("an object, not a list", "{}", "cannot unmarshal object"),
                Arguments.of("a number element", "[1]", "cannot unmarshal number"),
                Arguments.of("a string index", "[{\"containerIndex\":\"1\"}]", "containerIndex of type int"),
                Arguments.of("a fractional index", "[" + ENTRY.replace("\"deviceIndex\":0", "\"deviceIndex\":0.5") + "}]",
                        "deviceIndex of type int"),
                Arguments.of("a negative instance id", "[" + ENTRY + ",\"migUUID\":\"M\",\"gpuInstanceID\":-1,"
                        + "\"computeInstanceID\":0}]", "gpuInstanceID of type uint32"),
                Arguments.of("an instance id beyond uint32", "[" + ENTRY + ",\"migUUID\":\"M\","
                        + "\"gpuInstanceID\":4294967296,\"computeInstanceID\":0}]", "of type uint32"),
                Arguments.of("a placement that is not an object", "[" + ENTRY.replace("{\"start\":6,\"size\":1}", "7")
                        + "}]", "device.MigPlacement"),
                Arguments.of("a null element (zero value)", "[null]", "MIG allocation 0 is incomplete"),
                Arguments.of("partial runtime identity", "[" + ENTRY + ",\"migUUID\":\"M\"}]",
                        "partial runtime identity"),
                Arguments.of("duplicate pair", "[" + ENTRY + "}," + ENTRY + "}]", "duplicate MIG allocation"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void badAnnotationsAreErrorsNeverExceptions(String name, String annotation, String message) {
        Decoded<List<MigAllocation>> d = MigAllocationsCodec.decode(annotation);

        assertThat(d.isOk()).isFalse();
        assertThat(d.error()).contains(message);
    }

    @Test
    void encodesLikeGoJsonMarshalWithTheRuntimeFieldsOnlyOnceKnown() {
        MigAllocation reserved = MigAllocation.reserved(1, 0, "GPU-1", "1g.10gb", new MigPlacement(6, 1));
        MigAllocation realized = MigAllocation.reserved(2, 0, "GPU-\"q", "1g.10gb", new MigPlacement(6, 1))
                .withRuntime("MIG-x", 0, 0);

        String json = MigAllocationsCodec.encode(List.of(reserved, realized));

        assertThat(json).isEqualTo("[" + ENTRY + "},{\"containerIndex\":2,\"deviceIndex\":0,\"gpuUUID\":\"GPU-\\\"q\","
                + "\"profile\":\"1g.10gb\",\"placement\":{\"start\":6,\"size\":1},\"migUUID\":\"MIG-x\","
                + "\"gpuInstanceID\":0,\"computeInstanceID\":0}]");
        assertThat(MigAllocationsCodec.decode(json).value()).containsExactly(reserved, realized);
        assertThat(MigAllocationsCodec.encode(List.of())).isEqualTo("[]");
    }
}
