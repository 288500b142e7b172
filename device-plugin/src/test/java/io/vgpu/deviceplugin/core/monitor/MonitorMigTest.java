package io.vgpu.deviceplugin.core.monitor;

import io.vgpu.state.model.MigAllocation;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorMigTest {

    private static final MonitoredPod POD = new MonitoredPod("uid", "ml", "job-0", "node-a", Map.of(), Map.of(),
            List.of("init"), List.of("main-a", "main-b"));

    static MigAllocation pending(int container, int device) {
        return new MigAllocation(container, device, "GPU-1", "1g.10gb", 6, 1, "", OptionalLong.empty(),
                OptionalLong.empty());
    }

    static MigAllocation realized(int container, int device) {
        return new MigAllocation(container, device, "GPU-1", "1g.10gb", 6, 1, "MIG-" + container + "-" + device,
                OptionalLong.of(9), OptionalLong.of(0));
    }

    static Stream<Arguments> validations() {
        return Stream.of(
                Arguments.of("reservations without runtime identity", List.of(pending(0, 0), pending(1, 0)),
                        Optional.empty()),
                Arguments.of("realized allocations", List.of(realized(0, 0), realized(0, 1)), Optional.empty()),
                Arguments.of("negative container index", List.of(pending(-1, 0)),
                        Optional.of("MIG allocation 0 is incomplete")),
                Arguments.of("no profile", List.of(pending(0, 0), new MigAllocation(0, 1, "GPU-1", "", 0, 1, "",
                        OptionalLong.empty(), OptionalLong.empty())), Optional.of("MIG allocation 1 is incomplete")),
                Arguments.of("zero placement size", List.of(new MigAllocation(0, 0, "GPU-1", "1g.10gb", 0, 0, "",
                        OptionalLong.empty(), OptionalLong.empty())), Optional.of("MIG allocation 0 is incomplete")),
                Arguments.of("partial runtime identity", List.of(new MigAllocation(0, 0, "GPU-1", "1g.10gb", 0, 1,
                        "MIG-x", OptionalLong.of(1), OptionalLong.empty())),
                        Optional.of("MIG allocation 0 has partial runtime identity")),
                Arguments.of("duplicate container/device pair", List.of(pending(1, 0), realized(1, 0)),
                        Optional.of("duplicate MIG allocation for container 1 device 0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validations")
    void validatesLikeDecodeMigAllocations(String name, List<MigAllocation> allocations, Optional<String> error) {
        assertThat(MigAllocation.validate(allocations)).isEqualTo(error);
    }

    @Test
    void emitsOnlyRealizedAllocationsWithTheirContainerNames() {
        Collected c = MigMetrics.collect(POD, List.of(pending(1, 0), realized(0, 0), realized(2, 1)), true);

        assertThat(c.problems()).isEmpty();
        assertThat(c.series()).extracting(MetricSeries::name)
                .containsExactly("hami_mig_device_info", "MigInfo", "hami_mig_device_info", "MigInfo");
        assertThat(c.series().get(0).labels()).containsExactly(
                Map.entry("namespace", "ml"), Map.entry("pod", "job-0"), Map.entry("container", "init"),
                Map.entry("vdevice_index", "0"), Map.entry("device_uuid", "GPU-1"), Map.entry("mig_uuid", "MIG-0-0"),
                Map.entry("profile", "1g.10gb"), Map.entry("gpu_instance_id", "9"),
                Map.entry("compute_instance_id", "0"));
        assertThat(c.series().get(3).labels()).containsExactly(
                Map.entry("podnamespace", "ml"), Map.entry("podname", "job-0"), Map.entry("ctrname", "main-b"),
                Map.entry("vdeviceid", "1"), Map.entry("deviceuuid", "GPU-1"), Map.entry("instanceid", "9"));
        assertThat(c.series()).allSatisfy(s -> assertThat(s.value()).isEqualTo(1.0));
    }

    @Test
    void reportsAllocationsNamingNoContainer() {
        Collected c = MigMetrics.collect(POD, List.of(realized(3, 0)), false);

        assertThat(c.series()).isEmpty();
        assertThat(c.problems()).singleElement().asString().contains("container index 3 out of range");
    }
}
