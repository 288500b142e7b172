package io.vgpu.gateway.kube;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class KubeApiMetricsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/api/v1/nodes/gpu-1, nodes",
        "/api/v1/nodes, nodes",
        "/api/v1/namespaces/team-a/pods/train-0, pods",
        "/api/v1/namespaces/team-a/pods/train-0/binding, pods/binding",
        "/api/v1/namespaces/team-a/events, events",
        "/api/v1/namespaces/team-a/pods?labelSelector=x, pods",
        "/apis/events.k8s.io/v1/namespaces/team-a/events, events",
        "/api/v1/namespaces/team-a, namespaces",
        "/api/v1, unknown",
    })
    void theResourceLabelNamesTheKindNeverTheObject(String path, String resource) {
        assertThat(KubeApiMetrics.resourceOf(path)).isEqualTo(resource);
    }
}
