package io.vgpu.hamicore;

/**
 * The JNI library could not be loaded: the configured path ({@code -Dvgpu.hamicore.lib} /
 * {@code VGPU_HAMICORE_LIB}) is wrong, the jar has no library for this platform, extraction to a
 * temporary directory failed, or the dynamic linker refused the file. The message says which and
 * how to fix it.
 */
public final class NativeLoadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    NativeLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
