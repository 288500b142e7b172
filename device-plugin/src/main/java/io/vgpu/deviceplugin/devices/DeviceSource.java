package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;

import java.util.List;

/**
 * Where the node's GPUs come from: NVML through hamicore-jni ({@link NvmlDeviceSource}) or a file
 * describing fake GPUs ({@link FakeGpuSource}).
 *
 * <p>{@link #scan()} BLOCKS (NVML calls, file reads): call it on a worker thread, never on an event loop.
 * Implementations are thread-safe.
 */
public interface DeviceSource extends AutoCloseable {

    /**
     * The GPUs present now, in NVML index order.
     *
     * @throws RuntimeException when the source cannot be read (NVML error, unreadable file); the message says why
     */
    List<GpuFacts> scan();

    /** A short description for logs, e.g. {@code nvml:libnvidia-ml.so.1}. */
    String describe();

    /** Releases the source (NVML shutdown). Idempotent. */
    @Override
    void close();
}
