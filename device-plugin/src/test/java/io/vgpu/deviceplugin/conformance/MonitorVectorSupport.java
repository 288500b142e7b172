package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import io.vgpu.deviceplugin.core.monitor.HamiMetrics;
import io.vgpu.deviceplugin.core.monitor.MetricSeries;
import io.vgpu.hamicore.RegionLayout;

/**
 * Shared pieces of the {@code hamicore-monitor-vectors/1} runners: byte images from
 * {@code writes[]}, scratch directories, and series comparison.
 */
final class MonitorVectorSupport {

    /** On-disk size libvgpu gives a v1 region (struct + the lock byte). */
    static final int V1_FILE_SIZE = 2008953;
    static final int V0_FILE_SIZE = 1197896;

    private MonitorVectorSupport() {
    }

    static RegionLayout layout(JsonNode vector) {
        return switch (vector.path("layout").asText("v1")) {
            case "v1" -> RegionLayout.V1;
            case "v0" -> RegionLayout.V0;
            default -> throw new IllegalArgumentException("unknown layout " + vector.get("layout"));
        };
    }

    static int fileSize(JsonNode vector) {
        if (vector.hasNonNull("file_size")) {
            return vector.get("file_size").intValue();
        }
        return layout(vector) == RegionLayout.V1 ? V1_FILE_SIZE : V0_FILE_SIZE;
    }

    static Path scratch() {
        try {
            return Files.createTempDirectory("monitor-vector");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }

    /** One expected or actual series, comparable: name, label map (sorted), value. */
    record Sample(String name, Map<String, String> labels, double value) {
        Sample {
            labels = new TreeMap<>(labels);
        }

        @Override
        public String toString() {
            return name + labels + "=" + value;
        }
    }

    static Sample sample(MetricSeries s) {
        return new Sample(s.name(), s.labels(), s.value());
    }

    /** {@code [{name, labels, value}]} plus {@code extraLabels} on every sample. */
    static List<Sample> expected(JsonNode list, JsonNode extraLabels) {
        List<Sample> out = new ArrayList<>();
        for (JsonNode m : list) {
            Map<String, String> labels = new LinkedHashMap<>();
            m.get("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
            if (extraLabels != null && !extraLabels.isNull()) {
                extraLabels.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
            }
            out.add(new Sample(m.get("name").asText(), labels, m.get("value").asDouble()));
        }
        return out;
    }

    /** The vector's {@code exported_extra_labels}, or HAMi's {@code zone="vGPU"} when it has none. */
    static JsonNode exportedLabels(JsonNode vector) {
        JsonNode extra = vector.get("exported_extra_labels");
        return extra != null && !extra.isNull() ? extra
                : JsonNodeFactory.instance.objectNode().put(HamiMetrics.ZONE_LABEL, HamiMetrics.ZONE);
    }

    static List<Sample> samples(List<MetricSeries> series) {
        return series.stream().map(MonitorVectorSupport::sample).toList();
    }

    /** Every gauge data point of {@code snapshots} as a sample. */
    static List<Sample> samples(MetricSnapshots snapshots) {
        List<Sample> out = new ArrayList<>();
        for (MetricSnapshot snapshot : snapshots) {
            if (!(snapshot instanceof GaugeSnapshot gauge)) {
                throw new IllegalStateException(snapshot.getMetadata().getName() + " is not a gauge");
            }
            for (GaugeSnapshot.GaugeDataPointSnapshot point : gauge.getDataPoints()) {
                out.add(new Sample(gauge.getMetadata().getPrometheusName(), labels(point), point.getValue()));
            }
        }
        return out;
    }

    private static Map<String, String> labels(DataPointSnapshot point) {
        Map<String, String> labels = new LinkedHashMap<>();
        point.getLabels().forEach(l -> labels.put(l.getName(), l.getValue()));
        return labels;
    }

    /** Mismatches between two lists, in order. */
    static List<String> sameInOrder(String what, List<Sample> actual, List<Sample> expected) {
        if (actual.equals(expected)) {
            return List.of();
        }
        return List.of(what + ": got " + actual + ", expected " + expected);
    }

    /** Mismatches between two lists as multisets. */
    static List<String> sameIgnoringOrder(String what, List<Sample> actual, List<Sample> expected) {
        List<Sample> missing = new ArrayList<>(expected);
        List<Sample> extra = new ArrayList<>();
        for (Sample s : actual) {
            if (!missing.remove(s)) {
                extra.add(s);
            }
        }
        List<String> problems = new ArrayList<>();
        if (!missing.isEmpty()) {
            problems.add(what + ": missing " + missing);
        }
        if (!extra.isEmpty()) {
            problems.add(what + ": unexpected " + extra);
        }
        return problems;
    }
}
