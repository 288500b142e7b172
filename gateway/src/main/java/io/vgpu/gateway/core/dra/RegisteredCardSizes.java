package io.vgpu.gateway.core.dra;

import io.vgpu.gateway.core.port.CardSizes;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@link CardSizes} of the device-plugin nodes the gateway knows: the {@code devmem} (MiB, after
 * {@code deviceMemoryScaling}, as DRA mode's {@code memory} capacity) of every healthy GPU in their
 * {@code hami.io/node-nvidia-register} annotations. Read from the informer cache on each call (a percentage pod is
 * rare; a node without a readable annotation contributes nothing). Pure over its supplier.
 */
public final class RegisteredCardSizes implements CardSizes {

    private final Supplier<? extends Collection<NodeObservation>> nodes;

    /** @param nodes the cached nodes */
    public RegisteredCardSizes(Supplier<? extends Collection<NodeObservation>> nodes) {
        this.nodes = nodes;
    }

    @Override
    public SortedSet<Long> memoryMiB() {
        TreeSet<Long> sizes = new TreeSet<>();
        for (NodeObservation node : nodes.get()) {
            String register = node.register();
            if (register == null || register.isEmpty()) {
                continue;
            }
            List<GpuDevice> devices = NodeRegisterCodec.decode(register).orElse(List.of());
            devices.stream().filter(GpuDevice::health).filter(d -> d.devmem() > 0)
                    .forEach(d -> sizes.add((long) d.devmem()));
        }
        return Collections.unmodifiableSortedSet(sizes);
    }
}
