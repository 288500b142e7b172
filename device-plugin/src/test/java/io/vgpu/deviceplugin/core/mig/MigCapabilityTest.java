package io.vgpu.deviceplugin.core.mig;

import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class MigCapabilityTest {

    private static NvmlMigProfile profile(String name, int sms, int instances, MigPlacement... placements) {
        return new NvmlMigProfile(name, 1, 1, instances, sms, 9984, List.of(placements));
    }

    @ParameterizedTest(name = "{0} of {1} SMs -> core {2}")
    @CsvSource({"14, 98, 15", "28, 98, 29", "42, 98, 43", "98, 98, 100", "16, 132, 13", "66, 132, 50"})
    void coreIsTheShareOfTheWholeGpusMultiprocessorsRoundedUp(int sms, int whole, int core) {
        MigCapability c = MigCapability.of(List.of(profile("x", sms, 1, new MigPlacement(0, 1)),
                profile("whole", whole, 1, new MigPlacement(0, 8))), Set.of("x"));
        assertThat(c.profiles()).singleElement().satisfies(p -> assertThat(p.core()).isEqualTo(core));
    }

    @Test
    void profilesWithoutPlacementsOrNotReportedAreNotOffered() {
        MigCapability c = MigCapability.of(List.of(profile("a", 14, 7), profile("b", 28, 3, new MigPlacement(0, 2))),
                Set.of("a", "b", "c"));
        assertThat(c.profiles()).extracting(p -> p.name()).containsExactly("b");
        assertThat(c.count()).isEqualTo(3);
        assertThat(MigCapability.of(List.of(profile("a", 14, 7, new MigPlacement(0, 1))), Set.of()).offersAny()).isFalse();
    }

    @Test
    void theAllowlistMatchesModelsInsideTheNvmlNameAndChecksProfileNames() {
        MigAllowlist list = new MigAllowlist(List.of(
                new MigAllowlist.Entry(List.of("A100-SXM4-40GB"), List.of("1g.5gb", "2g.10gb")),
                new MigAllowlist.Entry(List.of("A100"), List.of("2g.10gb", "7g.40gb"))));
        assertThat(list.profilesFor("NVIDIA A100-SXM4-40GB")).containsExactly("1g.5gb", "2g.10gb", "7g.40gb");
        assertThat(list.profilesFor("NVIDIA H100 80GB HBM3")).isEmpty();
        assertThat(list.problem()).isEmpty();
        assertThat(MigAllowlist.of(List.of("A100"), List.of("1gb")).problem()).get().asString().contains("\"1gb\"");
        assertThat(MigAllowlist.of(List.of(), List.of("1g.5gb")).problem()).get().asString()
                .contains("must define models and profiles");
    }
}
