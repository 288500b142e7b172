package io.vgpu.gateway.core.quota;

import io.vgpu.state.model.ContainerDevice;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** {@link QuotaBook#enforces}: true exactly when a limit is set for the namespace; admits agrees with it. */
class QuotaBookEnforcesTest {

    private static final String MEM = "nvidia.com/gpumem";
    private static final String CORES = "nvidia.com/gpucores";

    static Stream<Arguments> books() {
        return Stream.of(
                arguments(Named.of("nothing known", (Consumer<QuotaBook>) b -> { }), false),
                arguments(Named.of("usage only", (Consumer<QuotaBook>) b -> b.addUsage("ns", 4096, 30)), false),
                arguments(Named.of("limit in another namespace", (Consumer<QuotaBook>) b -> b.setLimit("other", MEM, 1)),
                        false),
                arguments(Named.of("memory limit", (Consumer<QuotaBook>) b -> b.setLimit("ns", MEM, 1024)), true),
                arguments(Named.of("core limit", (Consumer<QuotaBook>) b -> b.setLimit("ns", CORES, 10)), true),
                arguments(Named.of("limit cleared", (Consumer<QuotaBook>) b -> {
                    b.setLimit("ns", MEM, 1024);
                    b.clearLimit("ns", MEM);
                }), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("books")
    void enforcesOnlyWithALimitAndAdmitsEverythingWithout(Consumer<QuotaBook> setUp, boolean enforced) {
        QuotaBook book = new QuotaBook(MEM, CORES, 1);
        setUp.accept(book);
        List<List<ContainerDevice>> big = List.of(List.of(new ContainerDevice(0, "GPU-a", "NVIDIA", 80_000, 100)));

        assertThat(book.enforces("ns")).isEqualTo(enforced);
        assertThat(book.admits("ns", big, 0)).isEqualTo(!enforced);
    }
}
