package io.vgpu.hamicore;

import java.time.Duration;

/**
 * One of the region's process-shared POSIX semaphores, operated in place on the mapping through
 * JNI ({@code sem_timedwait} / {@code sem_post}): {@link #regionLock} is {@code sem}, the mutex
 * libvgpu takes around slot registration ({@code lock_shrreg}); {@link #postInitLock} is
 * {@code sem_postinit} (v1 only), held around host-PID discovery.
 *
 * <p><b>For tools and tests ONLY. A monitor must NEVER take these locks.</b> HAMi's monitor takes
 * none; a reader that dies between acquiring and releasing (or, for {@code sem}, between clearing
 * {@code owner_pid} and posting) leaves every CUDA process of the container waiting about five
 * minutes and then exiting (HAMi#2500). Every acquire therefore has a timeout.
 *
 * <p>All methods block for the length of the native call ({@link #tryAcquire} up to its timeout).
 * Requires the JNI library ({@link NativeLibrary}).
 */
public final class RegionSemaphore {

    /** Linux {@code ETIMEDOUT}. */
    static final int ETIMEDOUT = 110;

    private final MappedSharedRegion region;
    private final int offset;
    private final boolean tracksOwner;

    private RegionSemaphore(MappedSharedRegion region, int offset, boolean tracksOwner) {
        this.region = region;
        this.offset = offset;
        this.tracksOwner = tracksOwner;
    }

    /**
     * The region mutex {@code sem}. Acquiring it records this JVM's PID in {@code owner_pid}, and
     * releasing clears it before posting, exactly as {@code lock_shrreg}/{@code unlock_shrreg} do,
     * so libvgpu's dead-owner recovery works if this process dies holding it.
     */
    public static RegionSemaphore regionLock(SharedRegion region) {
        MappedSharedRegion mapped = mapped(region);
        return new RegionSemaphore(mapped, mapped.layout().sem, true);
    }

    /**
     * {@code sem_postinit} (v1 layout only).
     *
     * @throws IllegalArgumentException for a v0 region, which has none
     */
    public static RegionSemaphore postInitLock(SharedRegion region) {
        MappedSharedRegion mapped = mapped(region);
        if (mapped.layout().semPostInit < 0) {
            throw new IllegalArgumentException("a " + mapped.layout() + " region has no sem_postinit");
        }
        return new RegionSemaphore(mapped, mapped.layout().semPostInit, false);
    }

    /**
     * {@code sem_timedwait} with a deadline of now + {@code timeout} (zero: one {@code sem_trywait}).
     *
     * @return true when acquired, false when the timeout passed
     * @throws RegionLockException on any other error
     */
    public boolean tryAcquire(Duration timeout) {
        NativeLibrary.load();
        int rc = NativeBridge.semTimedWait(region.buffer(), offset, Math.max(0, timeout.toMillis()));
        if (rc == ETIMEDOUT) {
            return false;
        }
        check(rc, "sem_timedwait");
        if (tracksOwner) {
            region.putI64(region.layout().ownerPid, ProcessHandle.current().pid());
        }
        return true;
    }

    /**
     * Releases a lock acquired by {@link #tryAcquire}: clears {@code owner_pid} (region lock), then
     * {@code sem_post}.
     *
     * @throws RegionLockException when {@code sem_post} fails
     */
    public void release() {
        NativeLibrary.load();
        if (tracksOwner) {
            region.putI64(region.layout().ownerPid, 0);
        }
        check(NativeBridge.semPost(region.buffer(), offset), "sem_post");
    }

    /** The semaphore's current value ({@code sem_getvalue}): 1 free, 0 held. */
    public int value() {
        NativeLibrary.load();
        int[] value = new int[1];
        check(NativeBridge.semValue(region.buffer(), offset, value), "sem_getvalue");
        return value[0];
    }

    /** {@code sem_init(pshared = 1, value = 1)} at {@code offset}, for the region creator. */
    static void initialise(MappedSharedRegion region, int offset) {
        NativeLibrary.load();
        check(NativeBridge.semInit(region.buffer(), offset, 1), "sem_init");
    }

    private static void check(int errno, String function) {
        if (errno != 0) {
            throw new RegionLockException(errno, function);
        }
    }

    private static MappedSharedRegion mapped(SharedRegion region) {
        if (region instanceof MappedSharedRegion mapped) {
            return mapped;
        }
        throw new IllegalArgumentException("not a region created by SharedRegions or FakeSharedRegion: " + region);
    }
}
