package io.vgpu.simulate.report;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.simulate.ClusterGenerator;
import io.vgpu.simulate.ClusterSpec;
import io.vgpu.simulate.GpuModel;
import io.vgpu.simulate.ReportRunner;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.simulate.WorkloadMix;
import io.vgpu.simulate.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulate HTML report: self-contained, well-formed charts, one column per policy. */
class HtmlReportTest {

    private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);

    @Test
    void comparesBinpackAndSpreadSideBySideInOneSelfContainedFile(@TempDir Path dir) throws Exception {
        List<SyntheticNode> cluster = ClusterGenerator.generate(new ClusterSpec(6, 4,
                List.of(GpuModel.byName("T4"), GpuModel.byName("A100-SXM4-40GB")), 10, 2), 7);
        List<PodSpec> pods = Workloads.generate(cluster, NvidiaConfig.defaults(), WorkloadMix.DEFAULT, 120, 7);
        Path file = dir.resolve("out/report.html");

        List<ReportRun> runs = ReportRunner.run(new PrintWriter(new StringWriter()), new ReportRunner.Options("core",
                cluster, pods, NvidiaConfig.defaults(), List.of("binpack", "spread"), false, "spread", 1, 0,
                List.of("6 nodes x 4 GPUs, 120 pods, seed 7")), file);

        String html = Files.readString(file);
        assertThat(runs).extracting(ReportRun::label).containsExactly("binpack nodes, spread GPUs",
                "spread nodes, spread GPUs");
        assertThat(html).contains("Side by side", "binpack nodes, spread GPUs", "spread nodes, spread GPUs",
                "GPU memory utilisation per node", "GPU core utilisation per node",
                "Fragmentation and utilisation over time", "Placement latency", "Failures by reason");
        assertThat(html).doesNotContain("<script", "<link", "src=\"http", "href=\"http", "@import", "url(");
        assertWellFormedCharts(html);
        for (ReportRun run : runs) {
            assertThat(run.nodes()).hasSize(6);
            assertThat(run.timeline()).isNotEmpty().last().extracting(ReportRun.TimePoint::podsDone).isEqualTo(120);
            assertThat(run.latencyNanos()).hasSize(120);
            assertThat(run.summary().pods()).isEqualTo(120);
        }
        // binpack fills fewer nodes than spread: more of them stay idle
        assertThat(idleNodes(runs.get(0))).isGreaterThanOrEqualTo(idleNodes(runs.get(1)));
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {1, 300, 5_000})
    void drawsHeatmapsPerGpuOrPerNodeAtAnySize(int nodes) throws Exception {
        List<ReportRun.NodeUsage> usage = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            List<ReportRun.GpuUsage> gpus = new ArrayList<>();
            for (int g = 0; g < 8; g++) {
                gpus.add(new ReportRun.GpuUsage("GPU-" + n + "-" + g, "NVIDIA T4", (n * 8L + g) % 16_000, 16_000,
                        g * 10, 100, g % 3, 10));
            }
            usage.add(new ReportRun.NodeUsage("node-" + n, gpus));
        }
        String svg = Svg.heatmap(usage, ReportRun.GpuUsage::memoryShare, "granted memory");
        parse(svg);
        assertThat(svg).contains(nodes * 8 <= 16_000 ? "per GPU" : "per node");
    }

    @Test
    void escapesTextFromTheRun() {
        String html = HtmlReport.render("a <b> & \"c\"", List.of("<script>x</script>"), List.of());
        assertThat(html).contains("a &lt;b&gt; &amp; &quot;c&quot;", "&lt;script&gt;").doesNotContain("<script>");
    }

    @Test
    void drawsEmptyChartsWithoutFailing() throws Exception {
        parse(Svg.histogram(new long[0]));
        parse(Svg.lines(new int[0], Map.of("x", new double[0])));
        assertThat(Svg.bars(Map.of())).contains("every pod was placed");
        parse(Svg.histogram(new long[] {5_000_000, 5_000_000}));
    }

    private static long idleNodes(ReportRun run) {
        return run.nodes().stream().filter(n -> n.gpus().stream().allMatch(g -> g.slots() == 0)).count();
    }

    private static void assertWellFormedCharts(String html) throws Exception {
        Matcher m = SVG.matcher(html);
        int count = 0;
        while (m.find()) {
            parse(m.group());
            count++;
        }
        assertThat(count).as("2 heatmaps, the timeline and the histogram per run, failures when any").isBetween(8, 10);
    }

    private static void parse(String svg) throws Exception {
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }
}
