package io.vgpu.state.dra;

import io.vgpu.state.codec.Decoded;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceSliceCodecTest {

    private static final SliceContent TWO_GPUS = SliceBuilder.build(new SliceInput("node-a",
            List.of(SliceGpu.of("GPU-a", 0, "NVIDIA A100-SXM4-80GB", 85899345920L),
                    SliceGpu.of("GPU-b", 1, "NVIDIA A100-SXM4-80GB", 85899345920L).withHealth(GpuHealth.fatalXid(79))),
            Optional.of("535.104.05"), Optional.of("12.4"), SliceSettings.defaults(), Set.of("GPU-a"),
            SliceInput.TaintSupport.TAINT)).content().atGeneration(7);

    @Test
    void decodesWhatItEncodes() {
        SliceObject object = new SliceObject("node-a-gpu.vgpu.io", "42",
                Optional.of(new SliceObject.NodeOwner("node-a", "uid-1")), TWO_GPUS);

        Decoded<SliceObject> back = ResourceSliceCodec.decode(ResourceSliceCodec.encode(object));

        assertThat(back.isOk()).as(back.toString()).isTrue();
        assertThat(back.value()).isEqualTo(object);
    }

    @Test
    void writesTheSameBytesForTheSameContent() {
        SliceObject object = new SliceObject("s", "", Optional.empty(), TWO_GPUS);
        String once = ResourceSliceCodec.encode(object);

        assertThat(ResourceSliceCodec.encode(ResourceSliceCodec.decode(once).value())).isEqualTo(once);
        assertThat(once).startsWith("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
                + "\"spec\":{\"driver\":\"gpu.vgpu.io\",\"nodeName\":\"node-a\",\"pool\":{\"name\":\"node-a\",\"generation\":7,"
                + "\"resourceSliceCount\":1},\"devices\":[{\"name\":\"gpu-0\",\"allowMultipleAllocations\":true,");
    }

    @Test
    void readsWhatTheApiServerWritesBackAsTheSameContent() {
        // canonical quantities, taints with timeAdded, managed fields and status: the same content
        String stored = ResourceSliceCodec.encode(new SliceObject("s", "", Optional.empty(), TWO_GPUS))
                .replace("\"value\":\"80Gi\"", "\"value\":\"85899345920\"")
                .replace("\"effect\":\"NoExecute\"", "\"effect\":\"NoExecute\",\"timeAdded\":\"2026-12-01T10:00:00Z\"")
                .replace("\"metadata\":{\"name\":\"s\"}", "\"metadata\":{\"name\":\"s\",\"resourceVersion\":\"9\","
                        + "\"managedFields\":[{\"manager\":\"x\"}],\"generation\":1}");

        SliceObject read = ResourceSliceCodec.decode(stored).value();

        assertThat(read.content()).isEqualTo(TWO_GPUS);
        assertThat(read.resourceVersion()).isEqualTo("9");
        assertThat(read.content().sameAs(TWO_GPUS.atGeneration(8))).as("the generation is not content").isTrue();
    }

    @Test
    void namesTheSliceAfterTheNodeWithinTheObjectNameLimit() {
        assertThat(SliceBuilder.sliceName("node-a")).isEqualTo("node-a-gpu.vgpu.io");
        String longNode = "n".repeat(120) + "." + "m".repeat(132);
        String name = SliceBuilder.sliceName(longNode);
        assertThat(name).hasSizeLessThanOrEqualTo(253).endsWith("-gpu.vgpu.io").isNotEqualTo(SliceBuilder.sliceName(longNode + "x"));
        assertThat(SliceValidator.validate(name, TWO_GPUS)).isEmpty();
    }

    @Test
    void refusesWhatItCannotRead() {
        assertThat(ResourceSliceCodec.decode("{").isOk()).isFalse();
        assertThat(ResourceSliceCodec.decode("{\"kind\":\"ResourceClaim\",\"spec\":{}}").error()).contains("not ResourceSlice");
        assertThat(ResourceSliceCodec.decode("{\"spec\":{\"devices\":[{\"name\":\"d\",\"attributes\":{\"l\":{\"ints\":[1]}}}]}}")
                .error()).isEqualTo("device d attribute l: unknown value type ints");
    }
}
