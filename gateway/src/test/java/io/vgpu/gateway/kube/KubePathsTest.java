package io.vgpu.gateway.kube;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Names in API paths are single escaped segments: no name reaches another path. */
class KubePathsTest {

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', value = {
        "pod-1|pod-1", "a.b-c_d~e|a.b-c_d~e", "a/b|a%2Fb", "a?watch=1|a%3Fwatch%3D1", "a b|a%20b", "a#b|a%23b",
        "..|%2E%2E", ".|%2E", "../x|..%2Fx", "pöd|p%C3%B6d", "%2F|%252F", "a\u0000b|a%00b"})
    void namesAreOneEscapedSegment(String name, String segment) {
        assertThat(KubePaths.segment(name)).isEqualTo(segment);
    }

    @Test
    void everyPathEscapesEveryName() {
        assertThat(KubePaths.pod("ns/x", "a/../b")).isEqualTo("/api/v1/namespaces/ns%2Fx/pods/a%2F..%2Fb");
        assertThat(KubePaths.binding("ns", "..")).isEqualTo("/api/v1/namespaces/ns/pods/%2E%2E/binding");
        assertThat(KubePaths.node("n?x")).isEqualTo("/api/v1/nodes/n%3Fx");
        assertThat(KubePaths.events("")).isEqualTo("/api/v1/namespaces/%00/events");
        assertThat(KubePaths.pod("default", "pod-1")).isEqualTo("/api/v1/namespaces/default/pods/pod-1");
    }
}
