package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static io.vgpu.state.model.fixtures.GpuFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class LegacyNodeDevicesTest {

    private static final String P4 = "GPU-ebe7c3f7-303d-558d-435e-99a160631fe4";

    @Test
    void decodesSevenAndNineFieldEntries() {
        List<GpuDevice> devices = NodeRegisterCodec.decodeLegacy(
                P4 + ",10,7680,100,NVIDIA-Tesla P4,0,true:GPU-b,5,100,50,T,1,false,3,mig:").value();

        assertThat(devices).containsExactly(
                card(P4).slots(10).memMiB(7680).cores(100).type("NVIDIA-Tesla P4").build(),
                card("GPU-b").index(3).slots(5).memMiB(100).cores(50).type("T").numa(1).mode("mig").unhealthy().build());
    }

    @Test
    void encodesNineFieldsPerDeviceAndRoundTrips() {
        List<GpuDevice> devices = List.of(card("GPU-a").type("NVIDIA-Tesla P4").memMiB(7680).build(),
                card("GPU-b").index(1).numa(1).unhealthy().build());

        String encoded = NodeRegisterCodec.encodeLegacy(devices);

        assertThat(encoded).isEqualTo("GPU-a,10,7680,100,NVIDIA-Tesla P4,0,true,0,hami-core:"
                + "GPU-b,10,8192,100,NVIDIA-Tesla V100-PCIE-32GB,1,false,1,hami-core:");
        assertThat(NodeRegisterCodec.decodeLegacy(encoded).value()).isEqualTo(devices);
        assertThat(NodeRegisterCodec.encodeLegacy(List.of())).isEmpty();
    }

    static Stream<Arguments> rejectsBadEntriesWithHamisMessages() {
        String ok7 = P4 + ",10,7680,100,NVIDIA-Tesla P4,0,true";
        return Stream.of(
                arguments(Named.of("null", null), "node annotation missing device separator"),
                arguments(Named.of("empty", ""), "node annotation missing device separator"),
                arguments(Named.of("no separator", ok7), "node annotation missing device separator"),
                arguments(Named.of("segment without comma", "garbage:"), "malformed node annotation segment: \"garbage\""),
                arguments(Named.of("quoted segment", "a\"b:"), "malformed node annotation segment: \"a\\\"b\""),
                arguments(Named.of("two fields", ",:"), "unexpected field count 2 in node annotation"),
                arguments(Named.of("eight fields", ok7 + ",1:"), "unexpected field count 8 in node annotation"),
                arguments(Named.of("truncated", P4 + ",10,7680,100:"), "unexpected field count 4 in node annotation"),
                arguments(Named.of("bad count", P4 + ",ten,7680,100,T,0,true:"),
                        "invalid count field: strconv.ParseInt: parsing \"ten\": invalid syntax"),
                arguments(Named.of("count out of int32", P4 + ",2147483648,7680,100,T,0,true:"),
                        "invalid count field: strconv.ParseInt: parsing \"2147483648\": value out of range"),
                arguments(Named.of("empty memory", P4 + ",10,,100,T,0,true:"),
                        "invalid memory field: strconv.ParseInt: parsing \"\": invalid syntax"),
                arguments(Named.of("health checked before numa", P4 + ",10,7680,100,T,x,maybe:"),
                        "invalid health field: strconv.ParseBool: parsing \"maybe\": invalid syntax"),
                arguments(Named.of("numa beyond int", P4 + ",10,7680,100,T,4294967296,true:"),
                        "numa field beyond what this implementation holds: 4294967296"),
                arguments(Named.of("bad index", P4 + ",10,7680,100,T,0,true,one,hami-core:"),
                        "invalid index field: strconv.Atoi: parsing \"one\": invalid syntax"),
                arguments(Named.of("negative index", P4 + ",10,7680,100,T,0,true,-1,hami-core:"),
                        "index field must not be negative: -1"),
                arguments(Named.of("huge index", P4 + ",10,7680,100,T,0,true,99999999999999999999,hami-core:"),
                        "invalid index field: strconv.Atoi: parsing \"99999999999999999999\": value out of range"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void rejectsBadEntriesWithHamisMessages(String annotation, String error) {
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decodeLegacy(annotation);

        assertThat(decoded.isOk()).isFalse();
        assertThat(decoded.error()).isEqualTo(error);
    }

    @Test
    void separatorsAloneDecodeToNoDevice() {
        assertThat(NodeRegisterCodec.decodeLegacy(":").value()).isEmpty();
        assertThat(NodeRegisterCodec.decodeLegacy("::").value()).isEmpty();
    }
}
