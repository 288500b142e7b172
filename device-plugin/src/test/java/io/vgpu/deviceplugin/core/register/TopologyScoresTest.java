package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.gpu.GpuTopology;
import io.vgpu.state.codec.NodeRegisterCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologyScoresTest {

    private static final String SWITCH = "00000000:C0:00.0";

    private static GpuTopology gpu(String uuid, String bus, GpuTopology.Link... links) {
        return new GpuTopology(uuid, bus, List.of(links));
    }

    private static GpuTopology.Link to(String bus) {
        return new GpuTopology.Link(bus, 0);
    }

    private static GpuTopology.Link viaSwitch() {
        return new GpuTopology.Link(SWITCH, GpuTopology.REMOTE_SWITCH);
    }

    private static List<List<Integer>> levels(int n, int level) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>(Collections.nCopies(n, level)));
        }
        return out;
    }

    @Test
    void directNvlinksAddAHundredEachToTheP2pLinkOfTheCommonAncestor() {
        // bus ids are compared as HAMi does: lower case, NVML's 8-digit domain = sysfs's 4 digits
        List<GpuTopology> gpus = List.of(
                gpu("GPU-0", "00000000:3B:00.0", to("0000:86:00.0"), to("00000000:86:00.0")),
                gpu("GPU-1", "00000000:86:00.0", to("00000000:3b:00.0"), to("00000000:3B:00.0")),
                gpu("GPU-2", "00000000:AF:00.0"));
        List<List<Integer>> levels = levels(3, 50);       // across CPUs: 10
        levels.get(0).set(1, 10);                         // one PCIe switch: 50
        levels.get(1).set(0, 10);

        TopologyScores.Result r = TopologyScores.compute(gpus, levels);

        assertThat(r.scores().get("GPU-0")).isEqualTo(Map.of("GPU-1", 50 + 2 * 100, "GPU-2", 10));
        assertThat(r.scores().get("GPU-2")).isEqualTo(Map.of("GPU-0", 10, "GPU-1", 10));
        assertThat(r.asymmetric()).isEmpty();
    }

    @Test
    void nvswitchLinksCountTheSmallerSideAndLinksWithoutARemoteEndSkipTheSwitchCheck() {
        List<GpuTopology> gpus = List.of(
                gpu("GPU-0", "00000000:01:00.0", viaSwitch(), viaSwitch(), viaSwitch()),
                gpu("GPU-1", "00000000:02:00.0", viaSwitch(), viaSwitch()),
                gpu("GPU-2", "00000000:03:00.0", new GpuTopology.Link("", GpuTopology.REMOTE_SWITCH)));
        TopologyScores.Result r = TopologyScores.compute(gpus, levels(3, 0));   // same board: 60

        assertThat(r.scores().get("GPU-0").get("GPU-1")).isEqualTo(60 + 200);
        assertThat(r.scores().get("GPU-1").get("GPU-0")).isEqualTo(60 + 200);
        // GPU-2's only link has no reported remote PCI: HAMi skips NVSwitch detection from its side, so
        // GPU-2 sees one link (P2P) towards GPU-0 while GPU-0 sees two (P2P + NVSwitch): asymmetric, 0
        assertThat(r.scores().get("GPU-2").get("GPU-0")).isZero();
        assertThat(r.scores().get("GPU-0").get("GPU-2")).isZero();
        assertThat(r.asymmetric()).containsExactly("GPU-0/GPU-2", "GPU-1/GPU-2");
    }

    @Test
    void theAnnotationListsTheRegisteredGpusOnlyWithSortedKeysAndTheSchedulerReadsItBack() {
        List<GpuTopology> gpus = List.of(gpu("GPU-b", "00000000:01:00.0"), gpu("GPU-a", "00000000:02:00.0"),
                gpu("GPU-c", "00000000:03:00.0"));
        TopologyScores.Result r = TopologyScores.compute(gpus, levels(3, 40));   // same CPU: 20

        String annotation = r.annotation(List.of("GPU-c", "GPU-a"));

        assertThat(annotation).isEqualTo("[{\"uuid\":\"GPU-c\",\"score\":{\"GPU-a\":20}},{\"uuid\":\"GPU-a\",\"score\":{\"GPU-c\":20}}]");
        assertThat(NodeRegisterCodec.decodePairScores(annotation).value())
                .isEqualTo(Map.of("GPU-c", Map.of("GPU-a", 20), "GPU-a", Map.of("GPU-c", 20)));
    }

    @Test
    void aLevelNvmlDoesNotDefineIsAnError() {
        assertThatThrownBy(() -> TopologyScores.compute(List.of(gpu("GPU-0", "a"), gpu("GPU-1", "b")), levels(2, 25)))
                .hasMessage("unknown topology level: 25");
    }
}
