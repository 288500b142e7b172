package io.vgpu.state.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StringPoolTest {

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @ValueSource(strings = {"", "NVIDIA", "GPU-5b7f0a8c-1d2e-4f30-9a4b-6c7d8e9f0a1b", "team-7", "héllo ✓"})
    void equalStringsGetOneInstanceAndKeepTheirValue(String word) {
        StringPool pool = new StringPool(16);
        String first = pool.of(new String(word));
        String second = pool.of(new String(word));
        assertThat(second).isSameAs(first).isEqualTo(word);
    }

    @Test
    void nullStaysNull() {
        assertThat(new StringPool(4).of(null)).isNull();
        assertThat(StringPool.canonical((String) null)).isNull();
    }

    @Test
    void distinctStringsStayDistinct() {
        StringPool pool = new StringPool(16);
        assertThat(pool.of("a")).isEqualTo("a");
        assertThat(pool.of("b")).isEqualTo("b");
        assertThat(pool.size()).isEqualTo(2);
    }

    @Test
    void aFullPoolStartsAfreshWithoutChangingAnyValue() {
        StringPool pool = new StringPool(3);
        String a = pool.of(new String("a"));
        pool.of("b");
        pool.of("c");
        String d = pool.of(new String("d")); // the pool was full: starts afresh with "d"
        assertThat(pool.size()).isEqualTo(1);
        assertThat(d).isEqualTo("d");
        assertThat(pool.of(new String("d"))).isSameAs(d);
        assertThat(pool.of(new String("a"))).isEqualTo(a).isNotSameAs(a); // forgotten, value unchanged
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new StringPool(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pooledAllocationIsEqualAndSharesUuidAndVendorWord() {
        PodAllocation one = new PodAllocation(List.of(List.of(
                new ContainerDevice(3, new String("GPU-pool-1"), new String("NVIDIA"), 1024, 30)),
                List.of(), List.of(new ContainerDevice(1, new String("GPU-pool-2"), new String("NVIDIA"), 2048, 0))), 1);
        PodAllocation two = new PodAllocation(List.of(List.of(
                new ContainerDevice(3, new String("GPU-pool-1"), new String("NVIDIA"), 1024, 30)),
                List.of(), List.of(new ContainerDevice(1, new String("GPU-pool-2"), new String("NVIDIA"), 2048, 0))), 1);
        PodAllocation a = StringPool.canonical(one);
        PodAllocation b = StringPool.canonical(two);
        assertThat(a).isEqualTo(one);
        assertThat(b).isEqualTo(two);
        ContainerDevice da = a.containers().get(0).get(0);
        ContainerDevice db = b.containers().get(0).get(0);
        assertThat(db.uuid()).isSameAs(da.uuid());
        assertThat(db.type()).isSameAs(da.type()).isSameAs(a.containers().get(2).get(0).type());
    }

    @Test
    void pooledPodRefKeepsUidAndNameAndSharesTheNamespace() {
        PodRef a = StringPool.canonical(new PodRef("uid-1", new String("team-pool"), "p1"));
        PodRef b = StringPool.canonical(new PodRef("uid-2", new String("team-pool"), "p2"));
        assertThat(a).isEqualTo(new PodRef("uid-1", "team-pool", "p1"));
        assertThat(b.namespace()).isSameAs(a.namespace());
    }

    @Test
    void pooledInventoryIsEqualAndSharesItsWords() {
        NodeInventory one = inventory();
        NodeInventory two = inventory();
        NodeInventory a = StringPool.canonical(one);
        NodeInventory b = StringPool.canonical(two);
        assertThat(a).isEqualTo(one);
        assertThat(b).isEqualTo(two);
        assertThat(b.name()).isSameAs(a.name());
        GpuDevice ga = a.devices().get(0);
        GpuDevice gb = b.devices().get(0);
        assertThat(gb.id()).isSameAs(ga.id());
        assertThat(gb.type()).isSameAs(ga.type());
        assertThat(gb.mode()).isSameAs(ga.mode());
        assertThat(gb.migProfiles().get(0).name()).isSameAs(ga.migProfiles().get(0).name());
        assertThat(b.pairScores().keySet().iterator().next()).isSameAs(ga.id());
    }

    @Test
    void nullValuesStayNull() {
        assertThat(StringPool.canonical((PodAllocation) null)).isNull();
        assertThat(StringPool.canonical((PodRef) null)).isNull();
        assertThat(StringPool.canonical((NodeInventory) null)).isNull();
    }

    private static NodeInventory inventory() {
        GpuDevice gpu = new GpuDevice(new String("GPU-inv-1"), 0, 10, 81920, 100, new String("NVIDIA-A100"), 0,
                new String("mig"), List.of(new MigProfile(new String("1g.10gb"), 10240, 14, 1,
                List.of(new MigPlacement(0, 1)))), true);
        GpuDevice other = new GpuDevice(new String("GPU-inv-2"), 1, 10, 81920, 100, new String("NVIDIA-A100"), 0,
                new String("hami-core"), List.of(), true);
        return new NodeInventory(new String("node-pool"), List.of(gpu, other), Map.of("hami.io/cordon", "x"),
                Map.of(new String("GPU-inv-1"), Map.of(new String("GPU-inv-2"), 50)));
    }
}
