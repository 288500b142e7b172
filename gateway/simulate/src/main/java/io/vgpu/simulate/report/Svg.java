package io.vgpu.simulate.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts as inline SVG strings: no script, no external resource, so the file renders offline in any
 * browser. Tooltips are SVG {@code <title>} elements. Pure functions of their inputs.
 */
final class Svg {

    static final int WIDTH = 560;
    private static final int MAX_TOOLTIP_CELLS = 4_000;
    private static final int PER_GPU_CELLS = 16_000;

    private Svg() {
    }

    /**
     * A heatmap of {@code share} per GPU (nodes as rows, wrapped into columns), or per node (the mean of its GPUs)
     * when there are too many GPUs to draw one by one.
     */
    static String heatmap(List<ReportRun.NodeUsage> nodes, ToDoubleFunction<ReportRun.GpuUsage> share, String what) {
        int gpus = nodes.stream().mapToInt(n -> n.gpus().size()).max().orElse(0);
        if (nodes.isEmpty() || gpus == 0) {
            return "<p class=\"muted\">no nodes</p>";
        }
        StringBuilder b = new StringBuilder();
        boolean perGpu = (long) nodes.size() * gpus <= PER_GPU_CELLS;
        boolean tooltips = (perGpu ? (long) nodes.size() * gpus : nodes.size()) <= MAX_TOOLTIP_CELLS;
        int height;
        if (perGpu) {
            int rowsPerColumn = Math.min(nodes.size(), 64);
            int columns = (nodes.size() + rowsPerColumn - 1) / rowsPerColumn;
            int cell = Math.max(2, Math.min(18, (WIDTH - 10) / (columns * (gpus + 1))));
            int cellH = Math.max(2, Math.min(14, 420 / rowsPerColumn));
            height = rowsPerColumn * cellH + 4;
            open(b, height + 34);
            for (int i = 0; i < nodes.size(); i++) {
                ReportRun.NodeUsage n = nodes.get(i);
                int x0 = (i / rowsPerColumn) * (gpus + 1) * cell;
                int y = (i % rowsPerColumn) * cellH;
                for (int g = 0; g < n.gpus().size(); g++) {
                    ReportRun.GpuUsage u = n.gpus().get(g);
                    double v = share.applyAsDouble(u);
                    rect(b, x0 + g * cell, y, cell - (cell > 4 ? 1 : 0), cellH - (cellH > 4 ? 1 : 0), color(v),
                            tooltips ? n.name() + " GPU " + g + " (" + u.type() + "): " + pct(v) : null);
                }
            }
        } else {
            int columns = (int) Math.ceil(Math.sqrt(nodes.size() * 2.0));
            int rows = (nodes.size() + columns - 1) / columns;
            int cell = Math.max(2, Math.min(14, (WIDTH - 10) / columns));
            height = rows * cell + 4;
            open(b, height + 34);
            for (int i = 0; i < nodes.size(); i++) {
                ReportRun.NodeUsage n = nodes.get(i);
                double v = n.gpus().stream().mapToDouble(share).average().orElse(0);
                rect(b, (i % columns) * cell, (i / columns) * cell, cell, cell, color(v),
                        tooltips ? n.name() + ": " + pct(v) : null);
            }
        }
        legend(b, height + 8, what + (perGpu ? " per GPU (rows: nodes)" : " per node (mean of its GPUs)"));
        return b.append("</svg>").toString();
    }

    /**
     * Lines over the pods handled: one per series, every value a fraction in [0, 1].
     *
     * @param x      the x values (pods done)
     * @param series name → values, one per x
     */
    static String lines(int[] x, Map<String, double[]> series) {
        int h = 240;
        int left = 44;
        int bottom = 30;
        int top = 30;
        int plotW = WIDTH - left - 10;
        int plotH = h - bottom - top;
        StringBuilder b = new StringBuilder();
        open(b, h);
        int maxX = x.length == 0 ? 1 : Math.max(1, x[x.length - 1]);
        for (int t = 0; t <= 4; t++) {
            double y = top + plotH - plotH * t / 4.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eaecee\"/>",
                    left, y, left + plotW, y));
            text(b, left - 6, y + 4, t * 25 + " %", "end");
        }
        for (int t = 0; t <= 4; t++) {
            double px = left + plotW * t / 4.0;
            text(b, px, top + plotH + 16, Long.toString(Math.round(maxX * t / 4.0)), t == 4 ? "end" : "middle");
        }
        text(b, left + plotW / 2.0, h - 2, "pods handled", "middle");
        String[] colours = {"#c0392b", "#2471a3", "#239b56", "#7d3c98"};
        int k = 0;
        for (Map.Entry<String, double[]> s : series.entrySet()) {
            String colour = colours[k % colours.length];
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < x.length; i++) {
                double v = Math.max(0, Math.min(1, s.getValue()[i]));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", left + plotW * (double) x[i] / maxX,
                        top + plotH - plotH * v));
            }
            b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                    .append(pts).append("\"/>");
            double lx = 4 + k * 185;
            b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"6\" width=\"12\" height=\"4\" fill=\"%s\"/>",
                    lx, colour));
            text(b, lx + 16, 12, s.getKey(), "start");
            k++;
        }
        if (x.length == 0) {
            text(b, WIDTH / 2.0, h / 2.0, "no samples", "middle");
        }
        return b.append("</svg>").toString();
    }

    /** A histogram of latencies on log-spaced buckets, with the p50 and p99 marked. */
    static String histogram(long[] nanos) {
        int h = 220;
        int left = 44;
        int bottom = 30;
        int plotW = WIDTH - left - 10;
        int plotH = h - bottom - 20;
        StringBuilder b = new StringBuilder();
        open(b, h);
        if (nanos.length == 0) {
            text(b, WIDTH / 2.0, h / 2.0, "no latency samples", "middle");
            return b.append("</svg>").toString();
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double lo = Math.log10(Math.max(1_000, sorted[0]));
        double hi = Math.log10(Math.max(sorted[sorted.length - 1], 1_000) * 1.0001);
        if (hi - lo < 0.5) {
            lo -= 0.25;
            hi += 0.25;
        }
        int buckets = 40;
        int[] counts = new int[buckets];
        for (long v : sorted) {
            int i = (int) ((Math.log10(Math.max(1_000, v)) - lo) / (hi - lo) * buckets);
            counts[Math.max(0, Math.min(buckets - 1, i))]++;
        }
        int max = Arrays.stream(counts).max().orElse(1);
        double bw = (double) plotW / buckets;
        for (int i = 0; i < buckets; i++) {
            double bh = plotH * (double) counts[i] / max;
            double from = Math.pow(10, lo + (hi - lo) * i / buckets);
            double to = Math.pow(10, lo + (hi - lo) * (i + 1) / buckets);
            rect(b, left + i * bw, 10 + plotH - bh, Math.max(1, bw - 1), bh, "#2471a3",
                    millis(from) + " – " + millis(to) + ": " + counts[i] + " pods");
        }
        for (int t = 0; t <= 4; t++) {
            double px = left + plotW * t / 4.0;
            text(b, px, 10 + plotH + 16, millis(Math.pow(10, lo + (hi - lo) * t / 4)),
                    t == 0 ? "start" : t == 4 ? "end" : "middle");
        }
        text(b, left - 6, 14, Integer.toString(max), "end");
        text(b, left - 6, 10 + plotH, "0", "end");
        text(b, left + plotW / 2.0, h - 2, "latency (log scale)", "middle");
        mark(b, sorted, 0.50, "p50", lo, hi, left, plotW, plotH);
        mark(b, sorted, 0.99, "p99", lo, hi, left, plotW, plotH);
        return b.append("</svg>").toString();
    }

    /** Horizontal bars, largest first. */
    static String bars(Map<String, Integer> values) {
        if (values.isEmpty()) {
            return "<p class=\"muted\">none: every pod was placed</p>";
        }
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(values.entrySet());
        sorted.sort((a, c) -> Integer.compare(c.getValue(), a.getValue()));
        int rowH = 20;
        int labelW = 300;
        int max = sorted.get(0).getValue();
        StringBuilder b = new StringBuilder();
        open(b, sorted.size() * rowH + 6);
        for (int i = 0; i < sorted.size(); i++) {
            Map.Entry<String, Integer> e = sorted.get(i);
            String label = e.getKey().length() > 48 ? e.getKey().substring(0, 47) + "…" : e.getKey();
            double w = (WIDTH - labelW - 50) * (double) e.getValue() / max;
            text(b, labelW - 6, i * rowH + 14, label, "end");
            rect(b, labelW, i * rowH + 3, Math.max(1, w), rowH - 6, "#c0392b", e.getKey() + ": " + e.getValue());
            text(b, labelW + w + 4, i * rowH + 14, Integer.toString(e.getValue()), "start");
        }
        return b.append("</svg>").toString();
    }

    // ------------------------------------------------------------------ helpers

    private static void mark(StringBuilder b, long[] sorted, double p, String label, double lo, double hi, int left,
                             int plotW, int plotH) {
        long v = sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))];
        double x = left + plotW * (Math.log10(Math.max(1_000, v)) - lo) / (hi - lo);
        b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b2631\" "
                + "stroke-dasharray=\"3 3\"/>", x, x, 10 + plotH));
        boolean right = x > WIDTH - 110;
        text(b, right ? x - 3 : x + 3, "p50".equals(label) ? 22 : 36, label + " " + millis(v), right ? "end" : "start");
    }

    /** Sequential palette from pale (0) to dark red (1). */
    static String color(double v) {
        double t = Math.max(0, Math.min(1, v));
        int[][] stops = {{238, 242, 247}, {253, 219, 121}, {240, 129, 55}, {190, 30, 45}, {103, 0, 31}};
        double pos = t * (stops.length - 1);
        int i = Math.min(stops.length - 2, (int) pos);
        double f = pos - i;
        int r = (int) Math.round(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f);
        int g = (int) Math.round(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f);
        int bl = (int) Math.round(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, bl);
    }

    private static void legend(StringBuilder b, int y, String what) {
        for (int i = 0; i < 100; i++) {
            rect(b, i * 2, y, 2, 10, color(i / 99.0), null);
        }
        text(b, 0, y + 22, "0 %", "start");
        text(b, 200, y + 22, "100 %", "end");
        text(b, 210, y + 9, what, "start");
    }

    private static void open(StringBuilder b, int height) {
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\" width=\"")
                .append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\">");
    }

    private static void rect(StringBuilder b, double x, double y, double w, double h, String fill, String title) {
        b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
                x, y, w, h, fill));
        if (title == null) {
            b.append("/>");
        } else {
            b.append("><title>").append(Html.escape(title)).append("</title></rect>");
        }
    }

    private static void text(StringBuilder b, double x, double y, String s, String anchor) {
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor))
                .append(Html.escape(s)).append("</text>");
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * v);
    }

    static String millis(double nanos) {
        double ms = nanos / 1e6;
        return ms >= 100 ? String.format(Locale.ROOT, "%.0f ms", ms)
                : ms >= 1 ? String.format(Locale.ROOT, "%.1f ms", ms)
                : String.format(Locale.ROOT, "%.0f µs", ms * 1000);
    }
}
