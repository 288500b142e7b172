package io.vgpu.state.dra;

import io.vgpu.state.codec.Decoded;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VgpuConfigCodecTest {

    private static final String HEAD = "\"apiVersion\":\"gpu.vgpu.io/v1alpha1\",\"kind\":\"VgpuConfig\"";

    @Test
    void decodesEveryFieldAndTreatsNullAsAbsent() {
        assertThat(VgpuConfigCodec.decode("{" + HEAD + ",\"taskPriority\":0,\"coreUtilizationPolicy\":\"force\"}").value())
                .isEqualTo(new VgpuConfig(OptionalInt.of(0), Optional.of(CorePolicy.FORCE)));
        assertThat(VgpuConfigCodec.decode("{" + HEAD + ",\"taskPriority\":null}").value()).isEqualTo(VgpuConfig.EMPTY);
        assertThat(VgpuConfigCodec.decode("{" + HEAD + "}").value()).isEqualTo(VgpuConfig.EMPTY);
    }

    @Test
    void encodesWhatItDecodes() {
        VgpuConfig config = new VgpuConfig(OptionalInt.of(3), Optional.of(CorePolicy.DISABLE));
        String json = VgpuConfigCodec.encode(config);
        assertThat(json).isEqualTo("{" + HEAD + ",\"taskPriority\":3,\"coreUtilizationPolicy\":\"disable\"}");
        assertThat(VgpuConfigCodec.decode(json).value()).isEqualTo(config);
        assertThat(VgpuConfigCodec.encode(VgpuConfig.EMPTY)).isEqualTo("{" + HEAD + "}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown field   | {HEAD,\"priority\":1}                  | unknown field \"priority\" in VgpuConfig",
            "two unknown     | {HEAD,\"a\":1,\"b\":2}                  | unknown fields \"a\", \"b\"",
            "unknown kind    | {\"apiVersion\":\"gpu.vgpu.io/v1alpha1\",\"kind\":\"GpuConfig\"} | unknown kind \"GpuConfig\"",
            "no kind         | {\"apiVersion\":\"gpu.vgpu.io/v1alpha1\"} | unknown kind (none)",
            "other version   | {\"apiVersion\":\"resource.nvidia.com/v1beta1\",\"kind\":\"VgpuConfig\"} | unsupported apiVersion \"resource.nvidia.com/v1beta1\"",
            "negative        | {HEAD,\"taskPriority\":-1}              | taskPriority must be an integer from 0",
            "fraction        | {HEAD,\"taskPriority\":1.5}             | taskPriority must be an integer",
            "text priority   | {HEAD,\"taskPriority\":\"1\"}           | taskPriority must be an integer",
            "bad policy      | {HEAD,\"coreUtilizationPolicy\":\"FORCE\"} | coreUtilizationPolicy must be \"default\", \"force\" or \"disable\", got \"FORCE\"",
            "repeated key    | {HEAD,\"taskPriority\":1,\"taskPriority\":2} | not valid JSON: Duplicate field 'taskPriority'",
            "not an object   | [1]                                    | must be a JSON object",
            "not JSON        | {HEAD,                                 | not valid JSON"})
    void refusesWhatItCannotReadAndSaysWhy(String name, String json, String message) {
        Decoded<VgpuConfig> decoded = VgpuConfigCodec.decode(json.replace("HEAD", HEAD));
        assertThat(decoded.isOk()).isFalse();
        assertThat(decoded.error()).contains(message);
    }

    @Test
    void layersFieldByFieldWithTheHigherConfigWinning() {
        VgpuConfig fromClass = new VgpuConfig(OptionalInt.of(1), Optional.of(CorePolicy.FORCE));
        VgpuConfig fromClaim = new VgpuConfig(OptionalInt.of(0), Optional.empty());
        assertThat(fromClaim.over(fromClass)).isEqualTo(new VgpuConfig(OptionalInt.of(0), Optional.of(CorePolicy.FORCE)));
        assertThatThrownBy(() -> new VgpuConfig(OptionalInt.of(-1), Optional.empty())).hasMessageContaining("negative");
    }
}
