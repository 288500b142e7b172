package io.vgpu.deviceplugin.monitor;

import java.util.Objects;

import io.vgpu.deviceplugin.core.monitor.UsageInfo;
import io.vgpu.hamicore.SharedRegion;

/**
 * {@link UsageInfo} over a hamicore-jni {@link SharedRegion}: plain delegation, same atomic loads
 * and stores, never the region semaphore.
 */
public final class SharedRegionUsage implements UsageInfo {

    private final SharedRegion region;

    private SharedRegionUsage(SharedRegion region) {
        this.region = Objects.requireNonNull(region, "region");
    }

    /** The monitor's view of {@code region}. */
    public static UsageInfo of(SharedRegion region) {
        return new SharedRegionUsage(region);
    }

    @Override
    public int deviceNum() {
        return region.deviceNum();
    }

    @Override
    public boolean isValidUuid(int device) {
        return region.isValidUuid(device);
    }

    @Override
    public byte[] deviceUuidBytes(int device) {
        return region.deviceUuidBytes(device);
    }

    @Override
    public long deviceMemoryTotal(int device) {
        return region.deviceMemoryTotal(device);
    }

    @Override
    public long deviceMemoryLimit(int device) {
        return region.deviceMemoryLimit(device);
    }

    @Override
    public long deviceMemoryContextSize(int device) {
        return region.deviceMemoryContextSize(device);
    }

    @Override
    public long deviceMemoryModuleSize(int device) {
        return region.deviceMemoryModuleSize(device);
    }

    @Override
    public long deviceMemoryBufferSize(int device) {
        return region.deviceMemoryBufferSize(device);
    }

    @Override
    public long deviceSmUtil(int device) {
        return region.deviceSmUtil(device);
    }

    @Override
    public long lastKernelTime() {
        return region.lastKernelTime();
    }

    @Override
    public int priority() {
        return region.priority();
    }

    @Override
    public int recentKernel() {
        return region.recentKernel();
    }

    @Override
    public int utilizationSwitch() {
        return region.utilizationSwitch();
    }

    @Override
    public void setRecentKernel(int value) {
        region.setRecentKernel(value);
    }

    @Override
    public void setUtilizationSwitch(int value) {
        region.setUtilizationSwitch(value);
    }
}
