package io.vgpu.state.codec;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.StringPool;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PodDevicesCodecTest {

    private static ContainerDevice nvidia(String uuid, int mem, int cores) {
        return new ContainerDevice(0, uuid, "NVIDIA", mem, cores);
    }

    static Stream<Arguments> encodesContainersInOrder() {
        return Stream.of(
                arguments(Named.of("no container", List.of()), ""),
                arguments(Named.of("one container without devices", List.of(List.of())), ";"),
                arguments(Named.of("one container, one GPU", List.of(List.of(nvidia("GPU-a", 3000, 0)))), "GPU-a,NVIDIA,3000,0:;"),
                arguments(Named.of("one container, two GPUs",
                        List.of(List.of(nvidia("UUID1", 1000, 30), nvidia("UUID2", 1000, 30)))),
                        "UUID1,NVIDIA,1000,30:UUID2,NVIDIA,1000,30:;"),
                arguments(Named.of("[none, GPU]", List.of(List.of(), List.of(nvidia("GPU-a", 1000, 30)))), ";GPU-a,NVIDIA,1000,30:;"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void encodesContainersInOrder(List<List<ContainerDevice>> containers, String annotation) {
        assertThat(PodDevicesCodec.encode(containers)).isEqualTo(annotation);
    }

    @Test
    void decodeKeepsTheEmptyTailEntry() {
        assertThat(PodDevicesCodec.decode(";GPU-a,NVIDIA,1000,30:;").value())
                .containsExactly(List.of(), List.of(nvidia("GPU-a", 1000, 30)), List.of());
        assertThat(PodDevicesCodec.decode("").value()).containsExactly(List.of());
    }

    @Test
    void decodeIgnoresPiecesWithoutCommaAndExtraFields() {
        assertThat(PodDevicesCodec.decodeContainer("junk:GPU-a,NVIDIA,1,2,extra,fields::").value())
                .containsExactly(nvidia("GPU-a", 1, 2));
    }

    @Test
    void encodeThenDecodeRoundTripsWithTheTail() {
        List<List<ContainerDevice>> containers = List.of(List.of(nvidia("GPU-a", 1, 2)), List.of(), List.of(nvidia("GPU-b", 3, 4)));

        List<List<ContainerDevice>> back = PodDevicesCodec.decode(PodDevicesCodec.encode(containers)).value();

        assertThat(back.subList(0, 3)).isEqualTo(containers);
        assertThat(back.get(3)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "three fields|GPU-a,NVIDIA,500:;|" + PodDevicesCodec.MISSING_FIELDS,
            "truncated|GPU-a,NVIDIA,5|" + PodDevicesCodec.MISSING_FIELDS,
            "non-numeric memory|GPU-a,NVIDIA,lots,0:;|invalid memory field: strconv.ParseInt: parsing \"lots\": invalid syntax",
            "empty cores|GPU-a,NVIDIA,500,:;|invalid core field: strconv.ParseInt: parsing \"\": invalid syntax",
            "memory beyond int32|GPU-a,NVIDIA,2147483648,0:;|invalid memory field: strconv.ParseInt: parsing \"2147483648\": value out of range",
            "huge cores|GPU-a,NVIDIA,1,99999999999999999999999:;|invalid core field: strconv.ParseInt: parsing \"99999999999999999999999\": value out of range",
            "second container bad|GPU-a,NVIDIA,1,1:;GPU-b,NVIDIA:;|" + PodDevicesCodec.MISSING_FIELDS})
    void rejectsBadAnnotations(String name, String annotation, String error) {
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(annotation);

        assertThat(decoded.isOk()).isFalse();
        assertThat(decoded.error()).isEqualTo(error);
    }

    @Test
    void rejectsNullText() {
        assertThat(PodDevicesCodec.decode(null).isOk()).isFalse();
        assertThat(PodDevicesCodec.decodeContainer(null).isOk()).isFalse();
    }

    @Test
    void decodesAnnotationsPerVendorAndOmitsAbsentKeys() {
        Map<String, String> keys = Map.of("NVIDIA", HamiAnnotations.DEVICES_TO_ALLOCATE);

        assertThat(PodDevicesCodec.decodeAnnotations(Map.of(), keys).value()).isEmpty();
        assertThat(PodDevicesCodec.decodeAnnotations(Map.of("other", "x"), keys).value()).isEmpty();
        assertThat(PodDevicesCodec.decodeAnnotations(Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA,1,2:;"), keys).value())
                .isEqualTo(Map.of("NVIDIA", List.of(List.of(nvidia("GPU-a", 1, 2)), List.of())));
        assertThat(PodDevicesCodec.decodeAnnotations(Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA:;"), keys).error())
                .isEqualTo(PodDevicesCodec.MISSING_FIELDS);
    }

    @Test
    void filterWritesBothAllocationAnnotationsWithTheSameString() {
        Map<String, String> annotations = PodDevicesCodec.filterAnnotations(List.of(List.of(), List.of(nvidia("GPU-a", 2000, 1))));

        assertThat(annotations).containsExactly(
                Map.entry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";GPU-a,NVIDIA,2000,1:;"),
                Map.entry(HamiAnnotations.DEVICES_ALLOCATED, ";GPU-a,NVIDIA,2000,1:;"));
        assertThat(PodDevicesCodec.filterAnnotations(List.of())).isEmpty();
    }

    @Test
    void eachAllocatePopsTheFirstNonEmptyEntry() {
        String start = ";GPU-a,NVIDIA,1000,30:;GPU-b,NVIDIA,2000,0:GPU-c,NVIDIA,2000,0:;";

        AllocationStep first = PodDevicesCodec.popNext(start).value();
        AllocationStep second = PodDevicesCodec.popNext(first.remaining()).value();

        assertThat(first.containerIndex()).isEqualTo(1);
        assertThat(first.devices()).containsExactly(nvidia("GPU-a", 1000, 30));
        assertThat(first.remaining()).isEqualTo(";;GPU-b,NVIDIA,2000,0:GPU-c,NVIDIA,2000,0:;");
        assertThat(PodDevicesCodec.allocationComplete(first.remaining())).isFalse();
        assertThat(second.containerIndex()).isEqualTo(2);
        assertThat(second.devices()).extracting(ContainerDevice::uuid).containsExactly("GPU-b", "GPU-c");
        assertThat(second.remaining()).isEqualTo(";;;");
        assertThat(PodDevicesCodec.allocationComplete(second.remaining())).isTrue();
        assertThat(PodDevicesCodec.popNext(second.remaining()).error()).isEqualTo(PodDevicesCodec.NOTHING_TO_ALLOCATE);
    }

    @Test
    void popNextReportsUndecodableText() {
        assertThat(PodDevicesCodec.popNext("GPU-a,NVIDIA,x,0:;").error()).isEqualTo("invalid memory field: strconv.ParseInt: parsing \"x\": invalid syntax");
        assertThat(PodDevicesCodec.popNext(null).isOk()).isFalse();
    }

    @Test
    void allocationIsCompleteOnlyWithoutAnyVendorWord() {
        assertThat(PodDevicesCodec.allocationComplete(";;", List.of("NVIDIA", "MLU"))).isTrue();
        assertThat(PodDevicesCodec.allocationComplete(";x,MLU,1,1:;", List.of("NVIDIA", "MLU"))).isFalse();
        assertThat(PodDevicesCodec.allocationComplete(null)).isTrue();
    }

    @Test
    void decodedUuidsAndVendorWordsAreThePoolsInstances() {
        // two pods on one card, each annotation its own string (as two informer objects carry them)
        ContainerDevice a = PodDevicesCodec.decode(new String("GPU-pool-a,NVIDIA,1024,0:;")).value().get(0).get(0);
        ContainerDevice b = PodDevicesCodec.decode(new String("GPU-pool-a,NVIDIA,2048,0:;")).value().get(0).get(0);

        assertThat(a.uuid()).isEqualTo("GPU-pool-a").isSameAs(b.uuid()).isSameAs(StringPool.canonical("GPU-pool-a"));
        assertThat(a.type()).isSameAs(b.type()).isSameAs(StringPool.canonical("NVIDIA"));
    }
}
