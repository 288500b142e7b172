package io.vgpu.state.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValuePoolTest {

    @Test
    void equalValuesGetOneInstanceAndKeepTheirValue() {
        ValuePool<List<String>> pool = new ValuePool<>(16);
        List<String> first = pool.of(List.of(new String("main"), "1024"));
        List<String> second = pool.of(List.of(new String("main"), "1024"));
        assertThat(second).isSameAs(first).isEqualTo(List.of("main", "1024"));
        assertThat(pool.of(List.of("side"))).isEqualTo(List.of("side")).isNotSameAs(first);
        assertThat(pool.size()).isEqualTo(2);
    }

    @Test
    void nullStaysNull() {
        assertThat(new ValuePool<List<String>>(4).of(null)).isNull();
    }

    @Test
    void aFullPoolStartsAfreshWithoutChangingAnyValue() {
        ValuePool<List<Integer>> pool = new ValuePool<>(2);
        List<Integer> a = pool.of(List.of(1));
        pool.of(List.of(2));
        List<Integer> c = pool.of(List.of(3)); // the pool was full: starts afresh with [3]
        assertThat(pool.size()).isEqualTo(1);
        assertThat(pool.of(List.of(3))).isSameAs(c);
        assertThat(pool.of(List.of(1))).isEqualTo(a).isNotSameAs(a); // forgotten, value unchanged
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new ValuePool<>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
