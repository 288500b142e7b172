package io.vgpu.hamicore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/** {@link XidEventSet} over an NVML event set owned by a {@link NativeNvml}. */
final class NativeXidEventSet implements XidEventSet {

    private final NativeNvml nvml;
    private final long set;
    private final List<Integer> registered;
    private final Map<Integer, NvmlException> failed;
    /** Serialises waits and the free on this set; always taken inside the NativeNvml read lock. */
    private final ReentrantLock use = new ReentrantLock();
    private boolean freed;

    NativeXidEventSet(NativeNvml nvml, long set, List<Integer> registered, Map<Integer, NvmlException> failed) {
        this.nvml = nvml;
        this.set = set;
        this.registered = List.copyOf(registered);
        this.failed = Map.copyOf(failed);
    }

    @Override
    public List<Integer> registeredDevices() {
        return registered;
    }

    @Override
    public Map<Integer, NvmlException> failedDevices() {
        return failed;
    }

    @Override
    public Optional<XidEvent> await(Duration timeout) {
        int millis = (int) Math.max(0, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        return nvml.call(() -> {
            use.lock();
            try {
                if (freed) {
                    throw new NvmlException(NvmlException.UNINITIALIZED, "nvmlEventSetFree", "this event set is closed");
                }
                long[] out = new long[4];
                byte[] uuid = NativeBridge.eventWait(nvml.handle(), set, millis, out);
                if (uuid == null) {
                    return Optional.empty();
                }
                return Optional.of(new XidEvent(new String(uuid, StandardCharsets.UTF_8), out[1], out[0], out[2], out[3]));
            } finally {
                use.unlock();
            }
        });
    }

    @Override
    public void close() {
        try {
            nvml.call(() -> {
                freeLocked();
                return null;
            });
        } catch (NvmlException closedNvml) {
            // NVML already shut down, which freed this set too
        }
        nvml.forget(this);
    }

    /** Frees the native set once; the caller holds the NativeNvml lock (read or write). */
    void freeLocked() {
        use.lock();
        try {
            if (!freed) {
                freed = true;
                NativeBridge.eventSetFree(nvml.handle(), set);
            }
        } finally {
            use.unlock();
        }
    }
}
