package io.vgpu.hamicore;

/**
 * An NVML call failed: carries NVML's own return code ({@code nvmlReturn_t}) and the name of the
 * function that returned it. This is the one exception type of the NVML API; "NVML is not
 * installed" (code {@link #LIBRARY_NOT_FOUND}, function {@code dlopen}), "driver not loaded"
 * ({@link #DRIVER_NOT_LOADED}, {@code nvmlInit_v2}) and "no such GPU" ({@link #INVALID_ARGUMENT} or
 * {@link #NOT_FOUND}, from the device-handle lookup) all arrive as this type, never as a crash.
 */
public final class NvmlException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static final int UNINITIALIZED = 1;
    public static final int INVALID_ARGUMENT = 2;
    public static final int NOT_SUPPORTED = 3;
    public static final int NO_PERMISSION = 4;
    public static final int NOT_FOUND = 6;
    public static final int DRIVER_NOT_LOADED = 9;
    public static final int TIMEOUT = 10;
    /** Made up by this library when {@code dlopen} of the NVML library fails. */
    public static final int LIBRARY_NOT_FOUND = 12;
    /** Made up by this library when the loaded NVML lacks a symbol. */
    public static final int FUNCTION_NOT_FOUND = 13;
    public static final int GPU_IS_LOST = 15;
    public static final int GPU_NOT_FOUND = 28;
    public static final int UNKNOWN = 999;

    private final int returnCode;
    private final String function;
    private final String detail;

    /**
     * @param returnCode the NVML return code (never 0)
     * @param function   the NVML function (or {@code dlopen}) that failed
     * @param detail     extra text such as the {@code dlerror()} message; may be empty
     */
    public NvmlException(int returnCode, String function, String detail) {
        super(message(returnCode, function, detail));
        this.returnCode = returnCode;
        this.function = function == null ? "?" : function;
        this.detail = detail == null ? "" : detail;
    }

    /** NVML's return code, e.g. 9 for {@code NVML_ERROR_DRIVER_NOT_LOADED}. */
    public int returnCode() {
        return returnCode;
    }

    /** The NVML function that failed, e.g. {@code nvmlDeviceGetUUID}, or {@code dlopen}. */
    public String function() {
        return function;
    }

    /** Extra native text (the {@code dlerror()} message for {@code dlopen}); empty when none. */
    public String detail() {
        return detail;
    }

    /** The nvml.h enumerator name of {@link #returnCode()}. */
    public String codeName() {
        return codeName(returnCode);
    }

    /** True when NVML itself is unusable here: no library, no usable symbols, or no driver. */
    public boolean nvmlUnavailable() {
        return returnCode == LIBRARY_NOT_FOUND || returnCode == DRIVER_NOT_LOADED
                || (returnCode == FUNCTION_NOT_FOUND && function.startsWith("nvmlInit"));
    }

    /**
     * True when this call is not available here: NVML answered NOT_SUPPORTED, or the loaded NVML
     * (an older driver) lacks the function. The {@link Nvml} facts that an older driver may not know
     * turn exactly this into "unknown".
     */
    public boolean unsupported() {
        return returnCode == NOT_SUPPORTED || returnCode == FUNCTION_NOT_FOUND;
    }

    private static String message(int code, String function, String detail) {
        String text = function + " failed: " + codeName(code) + " (" + code + ")";
        return detail == null || detail.isEmpty() ? text : text + ": " + detail;
    }

    /** The nvml.h enumerator name for a return code. */
    public static String codeName(int code) {
        return switch (code) {
            case 0 -> "NVML_SUCCESS";
            case 1 -> "NVML_ERROR_UNINITIALIZED";
            case 2 -> "NVML_ERROR_INVALID_ARGUMENT";
            case 3 -> "NVML_ERROR_NOT_SUPPORTED";
            case 4 -> "NVML_ERROR_NO_PERMISSION";
            case 5 -> "NVML_ERROR_ALREADY_INITIALIZED";
            case 6 -> "NVML_ERROR_NOT_FOUND";
            case 7 -> "NVML_ERROR_INSUFFICIENT_SIZE";
            case 8 -> "NVML_ERROR_INSUFFICIENT_POWER";
            case 9 -> "NVML_ERROR_DRIVER_NOT_LOADED";
            case 10 -> "NVML_ERROR_TIMEOUT";
            case 11 -> "NVML_ERROR_IRQ_ISSUE";
            case 12 -> "NVML_ERROR_LIBRARY_NOT_FOUND";
            case 13 -> "NVML_ERROR_FUNCTION_NOT_FOUND";
            case 14 -> "NVML_ERROR_CORRUPTED_INFOROM";
            case 15 -> "NVML_ERROR_GPU_IS_LOST";
            case 16 -> "NVML_ERROR_RESET_REQUIRED";
            case 17 -> "NVML_ERROR_OPERATING_SYSTEM";
            case 18 -> "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
            case 19 -> "NVML_ERROR_IN_USE";
            case 20 -> "NVML_ERROR_MEMORY";
            case 21 -> "NVML_ERROR_NO_DATA";
            case 22 -> "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED";
            case 23 -> "NVML_ERROR_INSUFFICIENT_RESOURCES";
            case 24 -> "NVML_ERROR_FREQ_NOT_SUPPORTED";
            case 25 -> "NVML_ERROR_ARGUMENT_VERSION_MISMATCH";
            case 26 -> "NVML_ERROR_DEPRECATED";
            case 27 -> "NVML_ERROR_NOT_READY";
            case 28 -> "NVML_ERROR_GPU_NOT_FOUND";
            case 29 -> "NVML_ERROR_INVALID_STATE";
            case 999 -> "NVML_ERROR_UNKNOWN";
            default -> "NVML_ERROR_UNKNOWN_CODE";
        };
    }
}
