package io.vgpu.deviceplugin.core.register;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigCapability;
import io.vgpu.deviceplugin.core.mig.NvmlMigProfile;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class NodeRegisterTest {

    private static final RegisterSettings PLAIN = new RegisterSettings(10, 1, 1, "hami-core", 0);

    private static GpuFacts gpu(String uuid, int index, long mib, Integer numa) {
        return new GpuFacts(uuid, index, "Tesla T4", OptionalLong.of(mib * 1024 * 1024),
                numa == null ? OptionalInt.empty() : OptionalInt.of(numa), true);
    }

    @Test
    void orderIsStableWhateverTheScanOrder() {
        List<GpuFacts> a = List.of(gpu("GPU-b", 1, 15360, 0), gpu("GPU-a", 0, 15360, 0), gpu("GPU-c", 2, 15360, 1));
        List<GpuFacts> b = List.of(a.get(2), a.get(0), a.get(1));
        String first = NodeRegisterCodec.encode(NodeRegister.build(a, Map.of(), PLAIN).devices());
        assertThat(NodeRegisterCodec.encode(NodeRegister.build(b, Map.of(), PLAIN).devices())).isEqualTo(first);
        assertThat(NodeRegister.build(a, Map.of(), PLAIN).devices()).extracting(GpuDevice::id).containsExactly("GPU-a", "GPU-b", "GPU-c");
    }

    @ParameterizedTest(name = "{0} MiB × {1} in mode {2} → {3}")
    @CsvSource({"15360, 1.5, hami-core, 23040", "15109, 1.1, hami-core, 16619", "15360, 0.5, hami-core, 7680",
            "40960, 2.0, mig, 40960"})
    void memoryScalingTruncatesAndIsOffInMigMode(long mib, double scaling, String mode, int devmem) {
        MigCapability offer = MigCapability.of(List.of(new NvmlMigProfile("7g.40gb", 0, 7, 1, 98, 40192,
                List.of(new MigPlacement(0, 8)))), Set.of("7g.40gb"));
        GpuDevice d = NodeRegister.build(List.of(gpu("GPU-a", 0, mib, 0)), Map.of(), new RegisterSettings(4, scaling, 1, mode, 0),
                        Map.of("GPU-a", offer)).devices().get(0);
        assertThat(d.devmem()).isEqualTo(devmem);
        assertThat(d.devcore()).isEqualTo(100);
    }

    @Test
    void inMigModeAGpuCarriesItsOffersAndTheLargestInstanceCountAndOneWithoutOffersIsLeftOut() {
        List<NvmlMigProfile> a100 = List.of(
                new NvmlMigProfile("1g.5gb", 19, 1, 7, 14, 4864, List.of(new MigPlacement(6, 1), new MigPlacement(5, 1))),
                new NvmlMigProfile("2g.10gb", 14, 2, 3, 28, 9984, List.of(new MigPlacement(0, 2))),
                new NvmlMigProfile("7g.40gb", 0, 7, 1, 98, 40192, List.of(new MigPlacement(0, 8))));
        MigCapability offer = MigCapability.of(a100, new LinkedHashSet<>(List.of("2g.10gb", "1g.5gb", "4g.20gb")));
        GpuFacts gpu = new GpuFacts("GPU-a", 0, "NVIDIA A100-SXM4-40GB", OptionalLong.of(40960L << 20), OptionalInt.of(0), true);
        GpuFacts other = new GpuFacts("GPU-b", 1, "Tesla T4", OptionalLong.of(15360L << 20), OptionalInt.of(0), true);

        NodeRegister.Result result = NodeRegister.build(List.of(gpu, other), Map.of(), new RegisterSettings(10, 1.5, 1, "mig", 0),
                Map.of("GPU-a", offer));

        // count 7 (1g.5gb's instance count), devmem unscaled, devcore 100; the profiles in allowlist order,
        // core = ceil(100 * SMs / 98): 2g 28 SMs -> 29, 1g 14 SMs -> 15; 4g.20gb is allowed but not reported
        assertThat(NodeRegisterCodec.encode(result.devices())).isEqualTo("[{\"id\":\"GPU-a\",\"count\":7,\"devmem\":40960,"
                + "\"devcore\":100,\"type\":\"NVIDIA A100-SXM4-40GB\",\"mode\":\"mig\",\"migProfiles\":["
                + "{\"name\":\"2g.10gb\",\"memoryMB\":9984,\"core\":29,\"sliceCount\":2,\"placements\":[{\"start\":0,\"size\":2}]},"
                + "{\"name\":\"1g.5gb\",\"memoryMB\":4864,\"core\":15,\"sliceCount\":1,\"placements\":[{\"start\":6,\"size\":1},"
                + "{\"start\":5,\"size\":1}]}],\"health\":true}]");
        assertThat(result.withoutMig()).containsExactly("GPU-b");
        assertThat(offer.profile("1g.5gb")).map(NvmlMigProfile::nvmlId).contains(19);
    }

    @Test
    void currentHealthAndUnknownNumaAreRegistered() {
        GpuDevice d = NodeRegister.build(List.of(gpu("GPU-a", 0, 1024, -1)), Map.of("GPU-a", false), PLAIN).devices().get(0);
        assertThat(d.health()).isFalse();
        assertThat(d.numa()).isZero();
        assertThat(d.type()).isEqualTo("NVIDIA-Tesla T4");
    }

    @Test
    void publisherWritesOnlyWhenTheValueChanges() {
        FakeCluster cluster = new FakeCluster().node("n", Map.of());
        RegisterPublisher publisher = new RegisterPublisher(cluster, "n");
        List<GpuDevice> devices = NodeRegister.build(List.of(gpu("GPU-a", 0, 1024, 0)), Map.of(), PLAIN).devices();

        assertThat(publisher.publish(devices).toCompletableFuture().join().outcome()).isEqualTo(RegisterPublisher.Outcome.WRITTEN);
        cluster.failNodeReads("must not be read again");
        assertThat(publisher.publish(devices).toCompletableFuture().join().outcome()).isEqualTo(RegisterPublisher.Outcome.UNCHANGED);
        List<GpuDevice> unhealthy = NodeRegister.build(List.of(gpu("GPU-a", 0, 1024, 0)), Map.of("GPU-a", false), PLAIN).devices();
        assertThat(publisher.publish(unhealthy).toCompletableFuture().join().outcome()).isEqualTo(RegisterPublisher.Outcome.FAILED);
    }

    @Test
    void aRestartedPublisherDoesNotRewriteAnIdenticalAnnotation() {
        List<GpuDevice> devices = NodeRegister.build(List.of(gpu("GPU-a", 0, 1024, 0)), Map.of(), PLAIN).devices();
        FakeCluster cluster = new FakeCluster().node("n", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, NodeRegisterCodec.encode(devices)));
        String before = cluster.node("n").toCompletableFuture().join().orElseThrow().resourceVersion();

        RegisterPublisher.Result result = new RegisterPublisher(cluster, "n").publish(devices).toCompletableFuture().join();

        assertThat(result.outcome()).isEqualTo(RegisterPublisher.Outcome.UNCHANGED);
        assertThat(cluster.node("n").toCompletableFuture().join().orElseThrow().resourceVersion()).isEqualTo(before);
    }
}
