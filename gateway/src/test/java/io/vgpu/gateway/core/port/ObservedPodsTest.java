package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ObservedPodsTest {

    @Test
    void theCanonicalPodIsEqual() {
        ObservedPod pod = pod("p1", "uid-1", "GPU-a,NVIDIA,1024,0:;", "GPU-a,NVIDIA,1024,0:;");
        assertThat(ObservedPods.canonical(pod)).isEqualTo(pod);
    }

    @Test
    void recurringWordsShareOneInstanceAcrossPods() {
        ObservedPod a = ObservedPods.canonical(pod("p1", "uid-1", "x", "x"));
        ObservedPod b = ObservedPods.canonical(pod("p2", "uid-2", "x", "x"));
        assertThat(b.spec().namespace()).isSameAs(a.spec().namespace());
        assertThat(b.spec().nodeName()).isSameAs(a.spec().nodeName());
        assertThat(b.spec().schedulerName()).isSameAs(a.spec().schedulerName());
        assertThat(b.phase()).isSameAs(a.phase());
        assertThat(b.spec().annotation(HamiAnnotations.VGPU_NODE)).isSameAs(a.spec().annotation(HamiAnnotations.VGPU_NODE));
        assertThat(b.spec().labels().get(HamiAnnotations.VGPU_NODE)).isSameAs(a.spec().nodeName());
        Container ca = a.spec().containers().get(0);
        Container cb = b.spec().containers().get(0);
        assertThat(cb.name()).isSameAs(ca.name());
        assertThat(cb.limits().get("nvidia.com/gpumem")).isSameAs(ca.limits().get("nvidia.com/gpumem"));
    }

    @Test
    void equalContainerListsAreOneInstanceAcrossPods() {
        ObservedPod a = ObservedPods.canonical(pod("p1", "uid-1", "x", "x"));
        ObservedPod b = ObservedPods.canonical(pod("p2", "uid-2", "x", "x"));
        assertThat(b.spec().containers()).isSameAs(a.spec().containers());
        assertThat(b.spec().initContainers()).isSameAs(a.spec().initContainers());
    }

    @Test
    void perPodStringsAreKeptAsTheyAre() {
        ObservedPod pod = pod("p1", "uid-1", "x", "x");
        ObservedPod canonical = ObservedPods.canonical(pod);
        assertThat(canonical.spec().name()).isSameAs(pod.spec().name());
        assertThat(canonical.spec().uid()).isSameAs(pod.spec().uid());
        assertThat(canonical.resourceVersion()).isSameAs(pod.resourceVersion());
    }

    @Test
    void equalDeviceAnnotationsShareOneString() {
        ObservedPod pod = ObservedPods.canonical(pod("p1", "uid-1", new String("GPU-a,NVIDIA,1024,0:;"),
                new String("GPU-a,NVIDIA,1024,0:;")));
        assertThat(pod.spec().annotation(HamiAnnotations.DEVICES_TO_ALLOCATE))
                .isSameAs(pod.spec().annotation(HamiAnnotations.DEVICES_ALLOCATED));
    }

    @Test
    void differentDeviceAnnotationsStayDifferent() {
        ObservedPod pod = ObservedPods.canonical(pod("p1", "uid-1", ";", "GPU-a,NVIDIA,1024,0:;"));
        assertThat(pod.spec().annotation(HamiAnnotations.DEVICES_TO_ALLOCATE)).isEqualTo(";");
        assertThat(pod.spec().annotation(HamiAnnotations.DEVICES_ALLOCATED)).isEqualTo("GPU-a,NVIDIA,1024,0:;");
    }

    private static ObservedPod pod(String name, String uid, String toAllocate, String allocated) {
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, new String("node-1"),
                HamiAnnotations.DEVICES_TO_ALLOCATE, toAllocate, HamiAnnotations.DEVICES_ALLOCATED, allocated,
                HamiAnnotations.BIND_PHASE, new String("success"));
        PodSpec spec = new PodSpec(name, new String("team-1"), uid, new String("hami-scheduler"), new String("node-1"),
                null, annotations, Map.of(HamiAnnotations.VGPU_NODE, new String("node-1")), List.of(),
                List.of(new Container(new String("main"), Map.of("nvidia.com/gpu", new String("1"),
                        "nvidia.com/gpumem", new String("1024")), Map.of(), false, List.of())));
        return new ObservedPod(spec, new String("Running"), false, true, new String("42"));
    }
}
