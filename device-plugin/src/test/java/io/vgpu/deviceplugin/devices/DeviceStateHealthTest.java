package io.vgpu.deviceplugin.devices;
import io.vgpu.deviceplugin.health.HealthRecovery;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.testing.FakeCluster;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Health marks, recovery and their reporting: the one place the node's GPU health lives. */
class DeviceStateHealthTest {

    private static final HealthRecovery ON = new HealthRecovery(true, Duration.ofMinutes(5), Duration.ofSeconds(30),
            new TreeSet<>(HealthRecovery.DEFAULT_FATAL_XIDS));

    private final MutableClock clock = new MutableClock();
    private final DeviceState state = DeviceState.of(List.of(
            new GpuFacts("GPU-a", 0, "T4", OptionalLong.of(1), OptionalInt.empty(), true),
            new GpuFacts("GPU-b", 1, "T4", OptionalLong.of(1), OptionalInt.empty(), true)), DeviceFilter.none(), clock);
    private final List<HealthTransition> transitions = new ArrayList<>();

    DeviceStateHealthTest() {
        state.subscribeTransitions(transitions::add);
    }

    @Test
    void aRecoverableMarkIsUndoneOnlyForTheMarkThatWasProbed() {
        state.markUnhealthy("GPU-a", ON.forXid(94));
        Instant first = state.recoverable().get("GPU-a");
        clock.advance(Duration.ofMinutes(1));
        state.markUnhealthy("GPU-a", ON.forXid(94));                 // a new XID: the quiet period starts again

        assertThat(state.recover("GPU-a", first)).isFalse();
        assertThat(state.health()).containsEntry("GPU-a", false);
        assertThat(state.recover("GPU-a", state.recoverable().get("GPU-a"))).isTrue();
        assertThat(state.health()).containsEntry("GPU-a", true);
        assertThat(state.recoverable()).isEmpty();
        assertThat(transitions).containsExactly(new HealthTransition("GPU-a", false, "XID 94"),
                new HealthTransition("GPU-a", true, "recovered"));
    }

    @Test
    void fatalXidsAndEveryMarkWithRecoveryOffStayForGood() {
        state.markUnhealthy("GPU-a", ON.forXid(79));
        state.markUnhealthy("GPU-a", ON.forXid(94));                 // a recoverable mark never replaces a fatal one
        state.markUnhealthy("GPU-b", HealthRecovery.OFF.forXid(94));

        assertThat(state.recoverable()).isEmpty();
        assertThat(state.health()).containsEntry("GPU-a", false).containsEntry("GPU-b", false);
        assertThat(transitions).extracting(HealthTransition::reason).containsExactly("XID 79 (fatal)", "XID 94");
    }

    @Test
    void aGpuItsSourceCallsUnhealthyIsNotBroughtBack() {
        state.applySourceHealth(List.of(new GpuFacts("GPU-a", 0, "T4", OptionalLong.of(1), OptionalInt.empty(), false)));
        state.markUnhealthy("GPU-a", ON.forWaitError("boom"));

        assertThat(state.recover("GPU-a", state.recoverable().get("GPU-a"))).isTrue();
        assertThat(state.health()).containsEntry("GPU-a", false);
    }

    @Test
    void transitionsBecomeNodeEventsAndMetrics() {
        FakeCluster cluster = new FakeCluster();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HealthReporter.events(state, cluster, "node-1");
        HealthReporter.metrics(state, registry, "node-1");

        state.markUnhealthy("GPU-b", ON.forXid(94));
        state.recover("GPU-b", state.recoverable().get("GPU-b"));
        state.markUnhealthy("GPU-b", ON.forXid(79));

        assertThat(cluster.events()).containsExactly(
                "node-1 Warning GpuUnhealthy: GPU GPU-b marked unhealthy (XID 94)",
                "node-1 Normal GpuHealthy: GPU GPU-b is healthy again (recovered)",
                "node-1 Warning GpuUnhealthy: GPU GPU-b marked unhealthy (XID 79 (fatal))");
        String scrape = registry.scrape();
        assertThat(scrape).contains("vgpu_device_health_transitions_total{device_uuid=\"GPU-b\",health=\"unhealthy\",node=\"node-1\"} 2.0")
                .contains("vgpu_device_health_transitions_total{device_uuid=\"GPU-b\",health=\"healthy\",node=\"node-1\"} 1.0")
                .contains("vgpu_device_healthy{device_index=\"1\",device_uuid=\"GPU-b\",node=\"node-1\"} 0.0")
                .contains("vgpu_device_healthy{device_index=\"0\",device_uuid=\"GPU-a\",node=\"node-1\"} 1.0");
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
