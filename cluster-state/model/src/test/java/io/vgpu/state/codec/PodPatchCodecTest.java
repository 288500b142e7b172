package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodPatchCodecTest {

    @Test
    void filterPatchMatchesHamisBodyWithSortedKeys() {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, "node2");
        annotations.put(HamiAnnotations.VGPU_TIME, "1724220039");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA,3000,0:;");
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, "GPU-a,NVIDIA,3000,0:;");

        String body = PodPatchCodec.filterPatch(annotations, Map.of(HamiAnnotations.VGPU_NODE, "node2"));

        assertThat(body).isEqualTo("{\"metadata\":{\"annotations\":{"
                + "\"hami.io/vgpu-devices-allocated\":\"GPU-a,NVIDIA,3000,0:;\","
                + "\"hami.io/vgpu-devices-to-allocate\":\"GPU-a,NVIDIA,3000,0:;\","
                + "\"hami.io/vgpu-node\":\"node2\",\"hami.io/vgpu-time\":\"1724220039\"},"
                + "\"labels\":{\"hami.io/vgpu-node\":\"node2\"}}}");
    }

    @Test
    void filterPatchWithoutLabelsOmitsTheLabelObject() {
        assertThat(PodPatchCodec.filterPatch(Map.of("a", "1"), Map.of()))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"a\":\"1\"}}}");
    }

    @Test
    void bindPatchMatchesHamisBody() {
        assertThat(PodPatchCodec.bindPatch(PodPatchCodec.PHASE_ALLOCATING, 1724220040L)).isEqualTo(
                "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"allocating\",\"hami.io/bind-time\":\"1724220040\"}}}");
    }

    @Test
    void removeAnnotationPatchMergesNull() {
        assertThat(PodPatchCodec.removeAnnotationPatch(HamiAnnotations.NODE_HANDSHAKE))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":null}}}");
    }

    @Test
    void valuesAreEscapedLikeGo() {
        assertThat(PodPatchCodec.annotationsPatch(Map.of("k", "a\"<b>&\n")))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"k\":\"a\\\"\\u003cb\\u003e\\u0026\\n\"}}}");
    }
}
