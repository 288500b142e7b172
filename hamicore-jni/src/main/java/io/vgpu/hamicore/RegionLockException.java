package io.vgpu.hamicore;

/**
 * A semaphore operation on the HAMi-core region failed with an errno other than a timeout
 * (timeouts are an ordinary {@code false} from {@link RegionSemaphore#tryAcquire}).
 */
public final class RegionLockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int errno;
    private final String function;

    RegionLockException(int errno, String function) {
        super(function + " failed: errno " + errno);
        this.errno = errno;
        this.function = function;
    }

    /** The errno value returned by the C library. */
    public int errno() {
        return errno;
    }

    /** The C function that failed, e.g. {@code sem_post}. */
    public String function() {
        return function;
    }
}
