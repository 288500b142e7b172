package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodFixtures.ContainerBuilder;
import io.vgpu.gateway.core.request.NvidiaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.vgpu.gateway.core.PodFixtures.ctr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NvidiaMutationTest {

    static final String GPU = "nvidia.com/gpu";
    static final String MEM = "nvidia.com/gpumem";
    static final String PCT = "nvidia.com/gpumem-percentage";
    static final String CORES = "nvidia.com/gpucores";
    static final String PRIO = "nvidia.com/priority";

    static NvidiaConfig config(int defaultGpuNum, boolean overwriteEnv, String policy, String runtimeClass) {
        return new NvidiaConfig(GPU, MEM, PCT, CORES, PRIO, overwriteEnv, 0, 0, defaultGpuNum, 1, policy, runtimeClass);
    }

    static final NvidiaConfig PLAIN = config(1, false, "default", "");

    static Stream<Arguments> mutations() {
        return Stream.of(
                arguments(named("count alone becomes an exclusive card", ctr("c").limit(GPU, "1")), PLAIN, true,
                        ctr("c").limit(GPU, "1").limit(CORES, "100")),
                arguments(named("memory size keeps the card shareable", ctr("c").limit(GPU, "1").limit(MEM, "8192")),
                        PLAIN, true, ctr("c").limit(GPU, "1").limit(MEM, "8192")),
                arguments(named("percentage 100 is exclusive", ctr("c").limit(GPU, "1").limit(PCT, "100")), PLAIN, true,
                        ctr("c").limit(GPU, "1").limit(PCT, "100").limit(CORES, "100")),
                arguments(named("percentage below 100 is shareable even without memory",
                        ctr("c").limit(GPU, "1").limit(PCT, "50")), PLAIN, true, ctr("c").limit(GPU, "1").limit(PCT, "50")),
                arguments(named("explicit cores kept", ctr("c").limit(GPU, "1").limit(CORES, "30")), PLAIN, true,
                        ctr("c").limit(GPU, "1").limit(CORES, "30")),
                arguments(named("cores in requests count as given", ctr("c").limit(GPU, "1").request(CORES, "30")), PLAIN,
                        true, ctr("c").limit(GPU, "1").request(CORES, "30")),
                arguments(named("count only in requests: cores default creates limits",
                        ctr("c").request(GPU, "1")), PLAIN, true, ctr("c").request(GPU, "1").limit(CORES, "100")),
                arguments(named("count only in requests with cores: no resource", ctr("c").request(GPU, "1")
                        .request(CORES, "20")), PLAIN, false, ctr("c").request(GPU, "1").request(CORES, "20")),
                arguments(named("cores alone inject the default count", ctr("c").limit(CORES, "20")), PLAIN, true,
                        ctr("c").limit(CORES, "20").limit(GPU, "1")),
                arguments(named("percentage alone injects count and exclusive cores", ctr("c").limit(PCT, "100")), PLAIN,
                        true, ctr("c").limit(PCT, "100").limit(GPU, "1").limit(CORES, "100")),
                arguments(named("default count 1024 is written as 1Ki", ctr("c").limit(MEM, "10")),
                        config(1024, false, "", ""), true, ctr("c").limit(MEM, "10").limit(GPU, "1Ki")),
                arguments(named("defaultGPUNum 0 injects nothing", ctr("c").limit(MEM, "10")), config(0, false, "", ""),
                        false, ctr("c").limit(MEM, "10")),
                arguments(named("memory only in requests injects nothing", ctr("c").request(MEM, "10")), PLAIN, false,
                        ctr("c").request(MEM, "10")),
                arguments(named("priority in limits becomes env", ctr("c").limit(GPU, "1").limit(MEM, "1")
                        .limit(PRIO, "5")), PLAIN, true, ctr("c").limit(GPU, "1").limit(MEM, "1").limit(PRIO, "5")
                        .env(NvidiaMutation.TASK_PRIORITY_ENV, "5")),
                arguments(named("priority value rounds up", ctr("c").limit(PRIO, "1500m")), PLAIN, false,
                        ctr("c").limit(PRIO, "1500m").env(NvidiaMutation.TASK_PRIORITY_ENV, "2")),
                arguments(named("priority in requests is ignored", ctr("c").request(PRIO, "5")), PLAIN, false,
                        ctr("c").request(PRIO, "5")),
                arguments(named("core policy env goes to non-GPU containers too", ctr("c").limit("cpu", "1")
                        .env("A", "b")), config(1, false, "force", ""), false, ctr("c").limit("cpu", "1").env("A", "b")
                        .env(NvidiaMutation.CORE_POLICY_ENV, "force")),
                arguments(named("overwriteEnv hides GPUs from non-GPU containers", ctr("c")), config(1, true, "", ""),
                        false, ctr("c").env(NvidiaMutation.VISIBLE_DEVICES_ENV, "none")),
                arguments(named("overwriteEnv leaves GPU containers alone", ctr("c").limit(GPU, "1").limit(MEM, "1")),
                        config(1, true, "", ""), true, ctr("c").limit(GPU, "1").limit(MEM, "1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutations")
    void mutatesTheContainer(ContainerBuilder input, NvidiaConfig config, boolean hasResource, ContainerBuilder after) {
        ContainerMutation result = new NvidiaMutation(config).mutate(input.build(), null);

        assertThat(result).isEqualTo(new ContainerMutation.Mutated(after.build(), hasResource, null));
    }

    @ParameterizedTest(name = "percentage \"{0}\" is rejected showing {1}")
    @CsvSource({"150,150", "-1,-1", "101,101", "100.5,101", "abc,abc"})
    void rejectsPercentagesOutsideZeroToHundred(String pct, String shown) {
        Container c = ctr("train").limit(GPU, "1").limit(PCT, pct).build();

        ContainerMutation result = new NvidiaMutation(PLAIN).mutate(c, null);

        assertThat(result).isEqualTo(new ContainerMutation.Rejected("invalid " + PCT + " value " + shown
                + " in container train: must be an integer between 0 and 100"));
        assertThat(result.hasResource()).isFalse();
    }

    @ParameterizedTest(name = "percentage \"{0}\" is accepted")
    @CsvSource({"0", "1", "100", "99.5"})
    void acceptsPercentagesWithinRange(String pct) {
        Container c = ctr("c").request(GPU, "1").request(PCT, pct).build();

        assertThat(new NvidiaMutation(PLAIN).mutate(c, null)).isInstanceOf(ContainerMutation.Mutated.class);
    }

    @Test
    void setsTheConfiguredRuntimeClassOnlyForGpuContainersWhenUnset() {
        NvidiaMutation m = new NvidiaMutation(config(1, false, "", "nvidia"));
        Container gpu = ctr("c").limit(GPU, "1").build();
        Container cpu = ctr("c").limit("cpu", "1").build();

        assertThat(((ContainerMutation.Mutated) m.mutate(gpu, null)).runtimeClassName()).isEqualTo("nvidia");
        assertThat(((ContainerMutation.Mutated) m.mutate(gpu, "kata")).runtimeClassName()).isEqualTo("kata");
        assertThat(((ContainerMutation.Mutated) m.mutate(cpu, null)).runtimeClassName()).isNull();
    }

    @Test
    void memoryNameNotConfiguredMeansExclusive() {
        NvidiaConfig noMemory = new NvidiaConfig(GPU, "", PCT, CORES, "", false, 0, 0, 1, 1, "", "");
        Container c = ctr("c").limit(GPU, "1").limit(MEM, "100").build();

        ContainerMutation result = new NvidiaMutation(noMemory).mutate(c, null);

        assertThat(((ContainerMutation.Mutated) result).after().limits()).containsEntry(CORES, "100");
    }
}
