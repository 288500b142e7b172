package io.vgpu.state.codec;

import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.vgpu.state.model.fixtures.GpuFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NodeRegisterCodecTest {

    private static final MigProfile PROFILE = new MigProfile("1g.5gb", 4864, 15, 1, List.of(new MigPlacement(6, 1)));

    @Test
    void encodesTheWorkedExampleOfTheSpecByteForByte() {
        List<GpuDevice> devices = List.of(
                card("GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec").slots(10).memMiB(32768).build(),
                card("GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448").index(1).slots(10).memMiB(32768).build());

        assertThat(NodeRegisterCodec.encode(devices)).isEqualTo(
                "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":10,\"devmem\":32768,\"devcore\":100,"
                        + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"mode\":\"hami-core\",\"health\":true},"
                        + "{\"id\":\"GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448\",\"index\":1,\"count\":10,\"devmem\":32768,"
                        + "\"devcore\":100,\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"mode\":\"hami-core\",\"health\":true}]");
    }

    @Test
    void dropsEveryZeroValueOnEncode() {
        GpuDevice zero = new GpuDevice("", 0, 0, 0, 0, "", 0, "", List.of(), false);

        assertThat(NodeRegisterCodec.encode(List.of(zero))).isEqualTo("[{}]");
        assertThat(NodeRegisterCodec.encode(List.of())).isEqualTo("[]");
    }

    @Test
    void writesMigProfilesInFieldOrderBeforeHealth() {
        GpuDevice mig = card("GPU-a").numa(1).mode("mig").profile(PROFILE).build();

        assertThat(NodeRegisterCodec.encode(List.of(mig))).isEqualTo(
                "[{\"id\":\"GPU-a\",\"count\":10,\"devmem\":8192,\"devcore\":100,\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\","
                        + "\"numa\":1,\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\",\"memoryMB\":4864,\"core\":15,"
                        + "\"sliceCount\":1,\"placements\":[{\"start\":6,\"size\":1}]}],\"health\":true}]");
    }

    @Test
    void encodesAMigProfileWithoutOmittingZeros() {
        assertThat(NodeRegisterCodec.encodeMigProfile(new MigProfile("", 0, 0, 0, List.of())))
                .isEqualTo("{\"name\":\"\",\"memoryMB\":0,\"core\":0,\"sliceCount\":0,\"placements\":[]}");
    }

    @Test
    void escapesStringsLikeGo() {
        GpuDevice odd = card("GPU-<1>&\"").build();

        assertThat(NodeRegisterCodec.encode(List.of(odd))).startsWith("[{\"id\":\"GPU-\\u003c1\\u003e\\u0026\\\"\"");
    }

    @Test
    void encodeThenDecodeGivesTheDevicesBack() {
        List<GpuDevice> devices = List.of(
                card("GPU-0").build(),
                card("GPU-1").index(1).numa(1).unhealthy().build(),
                card("GPU-2").index(2).mode("mig").cores(100).profile(PROFILE).build());

        assertThat(NodeRegisterCodec.decode(NodeRegisterCodec.encode(devices)).value()).isEqualTo(devices);
    }

    @Test
    void decodesAbsentKeysAsZeroValuesAndIgnoresUnknownKeys() {
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decode(
                "[{\"id\":\"GPU-0\",\"count\":5,\"whatever\":{\"x\":[1,2]},\"devicevendor\":\"AMD\",\"custominfo\":{\"a\":1},"
                        + "\"migtemplate\":[[{\"Name\":\"x\"}]]}]");

        assertThat(decoded.value()).containsExactly(new GpuDevice("GPU-0", 0, 5, 0, 0, "", 0, "", List.of(), false));
    }

    @Test
    void matchesKeysCaseInsensitivelyAndLetTheLastDuplicateWin() {
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decode("[{\"ID\":\"GPU-0\",\"Count\":1,\"count\":3,\"HEALTH\":true}]");

        assertThat(decoded.value().get(0).id()).isEqualTo("GPU-0");
        assertThat(decoded.value().get(0).count()).isEqualTo(3);
        assertThat(decoded.value().get(0).health()).isTrue();
    }

    @Test
    void leavesAFieldAloneWhenItsValueIsNull() {
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decode("[{\"id\":\"GPU-0\",\"count\":4,\"Count\":null,\"migProfiles\":null}]");

        assertThat(decoded.value().get(0).count()).isEqualTo(4);
        assertThat(decoded.value().get(0).migProfiles()).isEmpty();
    }

    static Stream<Arguments> rejectsBadRegisterAnnotations() {
        return Stream.of(
                arguments(Named.of("empty array", "[]"), "no gpu found on node"),
                arguments(Named.of("JSON null", "null"), "no gpu found on node"),
                arguments(Named.of("empty text", ""), "unexpected end of JSON input"),
                arguments(Named.of("blank text", "  \n"), "unexpected end of JSON input"),
                arguments(Named.of("truncated", "[{\"id\":\"GPU-0\",\"count\":"), "unexpected end of JSON input"),
                arguments(Named.of("not JSON", "not-valid-json"), "invalid JSON: "),
                arguments(Named.of("trailing garbage", "[] x"), "invalid JSON: "),
                arguments(Named.of("legacy format", "GPU-0,10,7680,100,NVIDIA-Tesla P4,0,true:"), "invalid JSON: "),
                arguments(Named.of("object at the top", "{\"id\":\"GPU-0\"}"),
                        "json: cannot unmarshal object into Go value of type []*device.DeviceInfo"),
                arguments(Named.of("number element", "[1]"), "json: cannot unmarshal number 1 into Go value of type device.DeviceInfo"),
                arguments(Named.of("null element", "[null]"), "device entry 0 is null"),
                arguments(Named.of("count as string", "[{\"count\":\"5\"}]"),
                        "json: cannot unmarshal string into Go struct field DeviceInfo.count of type int32"),
                arguments(Named.of("fractional count", "[{\"count\":1.5}]"),
                        "json: cannot unmarshal number 1.5 into Go struct field DeviceInfo.count of type int32"),
                arguments(Named.of("count beyond int32", "[{\"count\":2147483648}]"),
                        "json: cannot unmarshal number 2147483648 into Go struct field DeviceInfo.count of type int32"),
                arguments(Named.of("huge devmem", "[{\"devmem\":123456789012345678901234567890}]"),
                        "json: cannot unmarshal number 123456789012345678901234567890 into Go struct field DeviceInfo.devmem of type int32"),
                arguments(Named.of("negative index", "[{\"index\":-1}]"),
                        "json: cannot unmarshal number -1 into Go struct field DeviceInfo.index of type uint"),
                arguments(Named.of("index a Go uint holds but an int does not", "[{\"index\":4294967296}]"),
                        "json: number 4294967296 for Go struct field DeviceInfo.index is beyond what this implementation holds"),
                arguments(Named.of("health as string", "[{\"health\":\"true\"}]"),
                        "json: cannot unmarshal string into Go struct field DeviceInfo.health of type bool"),
                arguments(Named.of("id as number", "[{\"id\":7}]"),
                        "json: cannot unmarshal number 7 into Go struct field DeviceInfo.id of type string"),
                arguments(Named.of("custominfo not an object", "[{\"custominfo\":[1]}]"),
                        "json: cannot unmarshal array into Go struct field DeviceInfo.custominfo of type map[string]interface {}"),
                arguments(Named.of("negative slice count", "[{\"migProfiles\":[{\"sliceCount\":-1}]}]"),
                        "json: cannot unmarshal number -1 into Go struct field MigProfile.migProfiles.sliceCount of type uint32"),
                arguments(Named.of("bad placement", "[{\"migProfiles\":[{\"placements\":[{\"start\":\"x\"}]}]}]"),
                        "json: cannot unmarshal string into Go struct field MigPlacement.migProfiles.placements.start of type uint32"),
                arguments(Named.of("profiles not an array", "[{\"migProfiles\":{}}]"),
                        "json: cannot unmarshal object into Go value of type []device.MigProfile"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void rejectsBadRegisterAnnotations(String annotation, String errorPrefix) {
        Decoded<List<GpuDevice>> decoded = NodeRegisterCodec.decode(annotation);

        assertThat(decoded.isOk()).isFalse();
        assertThat(decoded.error()).startsWith(errorPrefix);
    }

    @Test
    void rejectsANullAnnotationValue() {
        assertThat(NodeRegisterCodec.decode(null).error()).isEqualTo("unexpected end of JSON input");
    }

    @Test
    void readsTheNodeWithPairScoresAttachedToRegisteredDevicesOnly() {
        Map<String, String> annotations = Map.of(
                HamiAnnotations.NODE_NVIDIA_REGISTER, "[{\"id\":\"GPU-0\",\"count\":1},{\"id\":\"GPU-1\",\"count\":1}]",
                HamiAnnotations.NODE_NVIDIA_SCORE, "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":100}},"
                        + "{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1}},{\"uuid\":\"GPU-9\",\"score\":{\"GPU-0\":7}}]");

        NodeRegistration node = NodeRegisterCodec.read(annotations).value();

        assertThat(node.devices()).extracting(GpuDevice::id).containsExactly("GPU-0", "GPU-1");
        assertThat(node.pairScores()).isEqualTo(Map.of("GPU-0", Map.of("GPU-1", 100)));
        assertThat(node.pairScore("GPU-0", "GPU-1")).isEqualTo(100);
        assertThat(node.pairScore("GPU-1", "GPU-0")).isZero();
    }

    @Test
    void readsANodeWithoutPairScores() {
        NodeRegistration node = NodeRegisterCodec.read(Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, "[{\"id\":\"GPU-0\"}]")).value();

        assertThat(node.pairScores()).isEmpty();
    }

    @ParameterizedTest(name = "pair scores {0}")
    @ValueSource(strings = {"not-valid-json", "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":\"high\"}}]",
            "[{\"uuid\":\"GPU-0\",\"score\":[1]}]", "{\"uuid\":\"GPU-0\"}", "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1e3}}]"})
    void rejectsTheWholeNodeWhenPairScoresAreBroken(String scores) {
        Map<String, String> annotations = Map.of(
                HamiAnnotations.NODE_NVIDIA_REGISTER, "[{\"id\":\"GPU-0\",\"count\":1}]",
                HamiAnnotations.NODE_NVIDIA_SCORE, scores);

        assertThat(NodeRegisterCodec.read(annotations).isOk()).isFalse();
    }

    @Test
    void reportsAMissingRegisterAnnotation() {
        assertThat(NodeRegisterCodec.read(Map.of()).error()).isEqualTo("annos not found hami.io/node-nvidia-register");
        assertThat(NodeRegisterCodec.read(null).error()).isEqualTo("annos not found hami.io/node-nvidia-register");
    }

    @Test
    void decodesNullPairScoresAsNone() {
        assertThat(NodeRegisterCodec.decodePairScores("null").value()).isEmpty();
        assertThat(NodeRegisterCodec.decodePairScores("[null,{\"uuid\":\"GPU-0\",\"score\":null}]").value())
                .isEqualTo(Map.of("GPU-0", Map.of()));
    }

    @Test
    void pairScoresAreWrittenAsTheDevicePluginDoesAndReadBack() {
        // conformance vector nr-015 (decode_pair_scores): the bytes HAMi's plugin writes for these scores
        Map<String, Map<String, Integer>> scores = new LinkedHashMap<>();
        scores.put("GPU-0", Map.of("GPU-3", 20, "GPU-1", 50, "GPU-2", 20));
        String annotation = NodeRegisterCodec.encodePairScores(scores);
        assertThat(annotation)
                .isEqualTo("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":50,\"GPU-2\":20,\"GPU-3\":20}}]");
        assertThat(NodeRegisterCodec.decodePairScores(annotation).value()).isEqualTo(scores);
    }
}
