package io.vgpu.state.dra;

import java.util.List;
import java.util.Objects;

/**
 * The {@code spec} of one node-local ResourceSlice (spec/dra-spec.md §1.1): the driver, the node, the
 * pool and the devices. Equality is by value, quantities numerically, so the content the builder
 * wants can be compared with what the API server holds, whatever text it wrote the numbers in.
 *
 * @param driver   {@code spec.driver}
 * @param nodeName {@code spec.nodeName}
 * @param pool     {@code spec.pool}
 * @param devices  {@code spec.devices}, in the order the scheduler tries them (first fit)
 */
public record SliceContent(String driver, String nodeName, Pool pool, List<SliceDevice> devices) {

    /** Copies the list; requires the rest. */
    public SliceContent {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(pool, "pool");
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** The same content at pool generation {@code generation}. */
    public SliceContent atGeneration(long generation) {
        return new SliceContent(driver, nodeName, new Pool(pool.name(), generation, pool.resourceSliceCount()), devices);
    }

    /**
     * True when {@code other} publishes the same thing, ignoring the pool generation: what decides
     * whether a republication must bump it.
     */
    public boolean sameAs(SliceContent other) {
        return other != null && driver.equals(other.driver) && nodeName.equals(other.nodeName)
                && pool.name().equals(other.pool.name()) && pool.resourceSliceCount() == other.pool.resourceSliceCount()
                && devices.equals(other.devices);
    }

    /**
     * {@code spec.pool}.
     *
     * @param name               the pool (this driver: the node name)
     * @param generation         bumped in every slice of the pool on any change
     * @param resourceSliceCount slices in the pool at this generation (this driver: 1)
     */
    public record Pool(String name, long generation, long resourceSliceCount) {

        /** Requires a name. */
        public Pool {
            Objects.requireNonNull(name, "name");
        }
    }
}
