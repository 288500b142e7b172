package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ObservedPodTest {

    /** Whether a bind of the pod's current decision has started; "-" leaves the annotation out. */
    @ParameterizedTest(name = "nodeName={0} bind-phase={1} vgpu-time={2} bind-time={3}: {4}")
    @CsvSource({
            "node-a, -,          -,    -,    true",  // the Binding landed
            "node-a, allocating, 1030, 1000, true",  // landed beats any phase and time
            "-,      -,          1030, -,    false", // only a filter decision
            "-,      '',         1030, 1030, false", // an empty phase is none
            "-,      allocating, 1030, 1030, true",  // bind in the decision's second
            "-,      allocating, 1030, 1031, true",  // bind after the decision
            "-,      success,    1030, 1031, true",
            "-,      failed,     1030, 1031, true",  // a failed bind of this decision holds its devices (HAMi)
            "-,      allocating, 1030, 1000, false", // an earlier bind's phase beside a new decision
            "-,      failed,     1030, 1000, false",
            "-,      allocating, -,    1000, true",  // no decision time: as before
            "-,      allocating, 1030, -,    true",  // no bind time: as before
            "-,      allocating, soon, 1000, true",  // unreadable: as before
    })
    void bindStarted(String nodeName, String phase, String vgpuTime, String bindTime, boolean started) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, "node-a");
        put(annotations, HamiAnnotations.BIND_PHASE, phase);
        put(annotations, HamiAnnotations.VGPU_TIME, vgpuTime);
        put(annotations, HamiAnnotations.BIND_TIME, bindTime);
        PodSpec spec = new PodSpec("p", "ns", "uid-p", "hami-scheduler", "-".equals(nodeName) ? "" : nodeName, null,
                annotations, Map.of(), List.of(), List.of());

        assertThat(new ObservedPod(spec, "Pending", false, true, "1").bindStarted()).isEqualTo(started);
    }

    private static void put(Map<String, String> annotations, String key, String value) {
        if (!"-".equals(value)) {
            annotations.put(key, value == null ? "" : value);
        }
    }
}
