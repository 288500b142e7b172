package io.vgpu.simulate.dra;

import java.util.List;
import java.util.Map;

/** Null-tolerant views of fabric8 model fields (absent lists and maps read as empty). */
final class Nulls {

    private Nulls() {
    }

    static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    static <K, V> Map<K, V> map(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
