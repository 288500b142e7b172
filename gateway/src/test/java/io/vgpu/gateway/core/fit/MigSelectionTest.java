package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.fit.DeviceFixtures.profile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class MigSelectionTest {

    private static final List<MigProfile> A100 = List.of(
            profile("7g.80gb", 81920, 98, 8, 0),
            profile("3g.40gb", 40448, 42, 4, 0, 4),
            profile("2g.20gb", 20096, 28, 2, 0, 2, 4),
            profile("1g.10gb", 9856, 14, 1, 0, 1, 2, 3, 4, 5, 6),
            profile("1g.20gb", 20096, 14, 2, 0, 2, 4, 6));

    static Stream<Arguments> choices() {
        return Stream.of(
                arguments("smallest fitting profile, 1g placed from the top", List.of(), 5000, "1g.10gb",
                        new MigPlacement(6, 1)),
                arguments("2g profiles are placed from the bottom", List.of(), 15000, "2g.20gb", new MigPlacement(0, 2)),
                arguments("equal memory: fewer slices first", List.of(), 20000, "2g.20gb", new MigPlacement(0, 2)),
                arguments("skips overlapping placements", List.of(new MigPlacement(0, 4)), 15000, "2g.20gb",
                        new MigPlacement(4, 2)),
                arguments("no free placement in any profile",
                        List.of(new MigPlacement(0, 4), new MigPlacement(4, 1), new MigPlacement(5, 1),
                                new MigPlacement(6, 1)), 5000, null, null),
                arguments("3g profiles are placed from the top", List.of(), 40000, "3g.40gb", new MigPlacement(4, 4)),
                arguments("too large for every profile", List.of(), 90000, null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void choices(String name, List<MigPlacement> occupied, int memory, String profile, MigPlacement placement) {
        MigSelection.Choice choice = MigSelection.select(A100, occupied, memory);
        if (profile == null) {
            assertThat(choice).isNull();
        } else {
            assertThat(choice.profile().name()).isEqualTo(profile);
            assertThat(choice.placement()).isEqualTo(placement);
            assertThat(choice.use().placement()).isEqualTo(placement);
        }
    }

    @Test
    void fallsBackToABiggerProfileWhenTheSmallestHasNoRoom() {
        List<MigProfile> profiles = List.of(profile("2g.10gb", 10000, 28, 2, 0, 2), profile("1g.5gb", 5000, 14, 1, 0));
        MigSelection.Choice choice = MigSelection.select(profiles, List.of(new MigPlacement(0, 1)), 4000);
        assertThat(choice.profile().name()).isEqualTo("2g.10gb");
        assertThat(choice.placement()).isEqualTo(new MigPlacement(2, 2));
    }

    @Test
    void aProfileIsLookedUpByItsFirstName() {
        List<MigProfile> profiles = List.of(profile("1g.5gb", 9000, 14, 1, 3), profile("1g.5gb", 5000, 14, 1, 5));
        MigSelection.Choice choice = MigSelection.select(profiles, List.of(), 4000);
        assertThat(choice.profile().memoryMB()).as("smallest candidate").isEqualTo(5000);
        assertThat(choice.placement()).as("placements of the first profile of that name").isEqualTo(new MigPlacement(3, 1));
    }
}
