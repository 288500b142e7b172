package io.vgpu.simulate.report;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code simulate --report out.html}: one self-contained HTML file (inline CSS and SVG, no script, nothing fetched
 * at view time) with, per run: the summary, GPU memory and core utilisation per node as heatmaps, fragmentation and
 * utilisation over the pods handled, the placement latency histogram and the failures by reason. Several runs
 * (e.g. {@code --compare-policies}: binpack and spread) are drawn side by side, under a table that compares their
 * headline figures.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    /**
     * Writes the report.
     *
     * @param file    where (parent directories are created)
     * @param title   the page title
     * @param context lines that describe the run (cluster, workload, seed), shown under the title
     * @param runs    one or more runs
     */
    public static void write(Path file, String title, List<String> context, List<ReportRun> runs) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(title, context, runs), StandardCharsets.UTF_8);
    }

    /** The report as one HTML document. */
    public static String render(String title, List<String> context, List<ReportRun> runs) {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(Html.escape(title))
                .append("</title><style>").append(CSS).append("</style></head><body>\n");
        b.append("<h1>").append(Html.escape(title)).append("</h1>\n<p class=\"muted\">");
        for (String line : context) {
            b.append(Html.escape(line)).append("<br>");
        }
        b.append("generated ").append(Instant.now()).append("</p>\n");
        if (runs.size() > 1) {
            comparison(b, runs);
        }
        b.append("<div class=\"runs\" style=\"grid-template-columns: repeat(").append(Math.max(1, runs.size()))
                .append(", minmax(580px, 1fr))\">\n");
        for (ReportRun run : runs) {
            run(b, run);
        }
        return b.append("</div>\n</body></html>\n").toString();
    }

    private static void run(StringBuilder b, ReportRun run) {
        SimulationReport s = run.summary();
        b.append("<section><h2>").append(Html.escape(run.label())).append("</h2>\n");
        b.append("<h3>Summary</h3>");
        table(b, List.of(summaryRows(s)), List.of(""), false);
        b.append("<h3>GPU memory utilisation per node</h3>")
                .append(Svg.heatmap(run.nodes(), ReportRun.GpuUsage::memoryShare, "granted memory"));
        b.append("<h3>GPU core utilisation per node</h3>")
                .append(Svg.heatmap(run.nodes(), ReportRun.GpuUsage::coreShare, "granted SM %"));
        b.append("<h3>Fragmentation and utilisation over time</h3>");
        int[] x = run.timeline().stream().mapToInt(ReportRun.TimePoint::podsDone).toArray();
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("fragmentation (R = " + s.referenceMiB() + " MiB)", values(run, ReportRun.TimePoint::fragmentation));
        series.put("memory utilisation", values(run, ReportRun.TimePoint::memoryUtilisation));
        series.put("core utilisation", values(run, ReportRun.TimePoint::coreUtilisation));
        b.append(Svg.lines(x, series));
        b.append("<p class=\"note\">Fragmentation: free GPU memory on cards that cannot take the workload's median "
                + "per-GPU request R (too little memory left, or no free slot), over all free GPU memory.</p>");
        b.append("<h3>Placement latency</h3>").append(Svg.histogram(run.latencyNanos()));
        b.append("<p class=\"note\">").append(Html.escape(run.latencyWhat())).append("; ")
                .append(run.latencyNanos().length).append(" samples.</p>");
        b.append("<h3>Failures by reason</h3>").append(Svg.bars(s.failuresByReason()));
        b.append("</section>\n");
    }

    private static void comparison(StringBuilder b, List<ReportRun> runs) {
        b.append("<h2>Side by side</h2>");
        List<Map<String, String>> columns = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (ReportRun r : runs) {
            columns.add(summaryRows(r.summary()));
            labels.add(r.label());
        }
        table(b, columns, labels, true);
    }

    private static Map<String, String> summaryRows(SimulationReport s) {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("mode", s.mode());
        rows.put("cluster", s.nodes() + " nodes, " + s.gpus() + " GPUs");
        rows.put("pods submitted", Integer.toString(s.pods()));
        rows.put("pods placed", String.format(Locale.ROOT, "%d (%.1f %%)", s.placed(),
                s.pods() == 0 ? 0.0 : 100.0 * s.placed() / s.pods()));
        rows.put("pods failed", Integer.toString(s.failed()));
        rows.put("throughput", String.format(Locale.ROOT, "%.0f pods/s (%.2f s)", s.podsPerSecond(), s.seconds()));
        for (SimulationReport.Latency l : s.latencies()) {
            rows.put("latency " + l.what() + " p50 / p99", l.samples() == 0 ? "-"
                    : Svg.millis(l.p50Micros() * 1e3) + " / " + Svg.millis(l.p99Micros() * 1e3));
        }
        rows.put("GPU memory utilisation", Svg.pct(s.memoryUtilisation()));
        rows.put("GPU core utilisation", Svg.pct(s.coreUtilisation()));
        rows.put("fragmentation (R = " + s.referenceMiB() + " MiB)", Svg.pct(s.fragmentation()));
        return rows;
    }

    private static void table(StringBuilder b, List<Map<String, String>> columns, List<String> labels,
                              boolean header) {
        b.append("<table>");
        if (header) {
            b.append("<tr><th></th>");
            labels.forEach(l -> b.append("<th>").append(Html.escape(l)).append("</th>"));
            b.append("</tr>");
        }
        List<String> keys = new ArrayList<>();
        columns.forEach(c -> c.keySet().forEach(k -> {
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }));
        for (String k : keys) {
            b.append("<tr><td>").append(Html.escape(k)).append("</td>");
            for (Map<String, String> c : columns) {
                b.append("<td>").append(Html.escape(c.getOrDefault(k, "-"))).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table>\n");
    }

    private static double[] values(ReportRun run, Function<ReportRun.TimePoint, Double> f) {
        return run.timeline().stream().mapToDouble(f::apply).toArray();
    }

    private static final String CSS = "body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;"
            + "margin:24px;color:#1b2631;background:#fff}h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;"
            + "border-bottom:1px solid #d5d8dc;padding-bottom:4px}h3{font-size:14px;margin:18px 0 6px}"
            + ".muted{color:#707b7c;font-size:13px}.note{color:#707b7c;font-size:12px;max-width:560px}"
            + ".runs{display:grid;gap:28px}table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;"
            + "border-bottom:1px solid #eaecee;text-align:left}th{background:#f4f6f7}"
            + "svg{display:block;font-size:11px;fill:#1b2631}svg .grid{stroke:#eaecee}"
            + "svg .mark{stroke:#1b2631;stroke-dasharray:3 3}";
}
