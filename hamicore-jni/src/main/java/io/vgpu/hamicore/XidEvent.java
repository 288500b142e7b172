package io.vgpu.hamicore;

/**
 * One NVML event from an {@link XidEventSet} ({@code nvmlEventSetWait_v2}).
 *
 * @param deviceUuid        UUID of the GPU the event is about; empty when NVML did not say or the
 *                          UUID could not be read (HAMi then treats every device as affected)
 * @param xid               the XID (NVML {@code eventData}); 999 means "unknown XID"
 * @param eventType         NVML event type bits; {@link #XID_CRITICAL_ERROR} for XIDs
 * @param gpuInstanceId     MIG GPU instance, {@link #NO_INSTANCE} when not attributable to one
 * @param computeInstanceId MIG compute instance, {@link #NO_INSTANCE} when not attributable to one
 */
public record XidEvent(String deviceUuid, long xid, long eventType, long gpuInstanceId, long computeInstanceId) {

    /** {@code nvmlEventTypeXidCriticalError}. */
    public static final long XID_CRITICAL_ERROR = 0x8L;
    /** The instance id NVML reports for events of the whole GPU (0xFFFFFFFF). */
    public static final long NO_INSTANCE = 0xFFFF_FFFFL;

    public XidEvent {
        deviceUuid = deviceUuid == null ? "" : deviceUuid;
    }

    /** True for {@code nvmlEventTypeXidCriticalError} events, the only ones HAMi acts on. */
    public boolean isXidCriticalError() {
        return (eventType & XID_CRITICAL_ERROR) != 0;
    }

    /** True when the event names a device. */
    public boolean hasDevice() {
        return !deviceUuid.isEmpty();
    }

    /** A whole-GPU XID event for {@code deviceUuid}. */
    public static XidEvent critical(String deviceUuid, long xid) {
        return new XidEvent(deviceUuid, xid, XID_CRITICAL_ERROR, NO_INSTANCE, NO_INSTANCE);
    }
}
