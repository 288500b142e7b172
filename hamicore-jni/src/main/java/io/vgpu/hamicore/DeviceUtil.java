package io.vgpu.hamicore;

/**
 * One process's utilisation sample on one device ({@code device_util_t}), percent. HAMi-core's
 * utilisation watcher writes only {@code smUtil}.
 *
 * @param decUtil decoder utilisation (never written)
 * @param encUtil encoder utilisation (never written)
 * @param smUtil  SM utilisation over the last second
 */
public record DeviceUtil(long decUtil, long encUtil, long smUtil) {

    /** All zero. */
    public static final DeviceUtil NONE = new DeviceUtil(0, 0, 0);
}
