package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiFunction;

import io.vgpu.hamicore.SharedRegion;

/**
 * HAMi's {@code UsageInfo} method names, as the vectors spell them, on hamicore-jni's
 * {@link SharedRegion}. Getters return BigInteger (unsigned for uint64), Boolean or String.
 */
final class UsageInfoMethods {

    private static final Map<String, BiFunction<SharedRegion, Integer, Object>> GETTERS = Map.ofEntries(
            Map.entry("DeviceMax", (r, i) -> BigInteger.valueOf(r.deviceMax())),
            Map.entry("DeviceNum", (r, i) -> BigInteger.valueOf(r.deviceNum())),
            Map.entry("DeviceMemoryContextSize", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryContextSize(i))),
            Map.entry("DeviceMemoryModuleSize", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryModuleSize(i))),
            Map.entry("DeviceMemoryBufferSize", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryBufferSize(i))),
            Map.entry("DeviceMemoryOffset", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryOffset(i))),
            Map.entry("DeviceMemoryTotal", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryTotal(i))),
            Map.entry("DeviceSmUtil", (r, i) -> MonitorVectorSupport.unsigned(r.deviceSmUtil(i))),
            Map.entry("DeviceMemoryLimit", (r, i) -> MonitorVectorSupport.unsigned(r.deviceMemoryLimit(i))),
            Map.entry("DeviceSmLimit", (r, i) -> MonitorVectorSupport.unsigned(r.deviceSmLimit(i))),
            Map.entry("IsValidUUID", (r, i) -> r.isValidUuid(i)),
            Map.entry("DeviceUUID", (r, i) -> new String(r.deviceUuidBytes(i), StandardCharsets.ISO_8859_1)),
            Map.entry("LastKernelTime", (r, i) -> BigInteger.valueOf(r.lastKernelTime())),
            Map.entry("GetPriority", (r, i) -> BigInteger.valueOf(r.priority())),
            Map.entry("GetRecentKernel", (r, i) -> BigInteger.valueOf(r.recentKernel())),
            Map.entry("GetUtilizationSwitch", (r, i) -> BigInteger.valueOf(r.utilizationSwitch())));

    private UsageInfoMethods() {
    }

    /** Calls a getter; {@code idx} is ignored by methods without an index. */
    static Object get(SharedRegion region, String method, int idx) {
        BiFunction<SharedRegion, Integer, Object> getter = GETTERS.get(method);
        if (getter == null) {
            throw new IllegalArgumentException("no UsageInfo getter " + method);
        }
        return getter.apply(region, idx);
    }

    /** Calls a setter with the vector's argument. */
    static void set(SharedRegion region, String method, JsonNode arg) {
        BigInteger value = MonitorVectorSupport.exact(arg);
        switch (method) {
            case "SetRecentKernel" -> region.setRecentKernel(value.intValueExact());
            case "SetUtilizationSwitch" -> region.setUtilizationSwitch(value.intValueExact());
            case "SetDeviceSmLimit" -> region.setDeviceSmLimit(value.longValue());
            case "SetDeviceMemoryLimit" -> region.setDeviceMemoryLimit(value.longValue());
            default -> throw new IllegalArgumentException("no UsageInfo setter " + method);
        }
    }

    /**
     * Compares a getter's result with an expectation; text expectations are prefixes (Go's
     * {@code DeviceUUID} returns all 96 bytes, NULs included).
     */
    static String mismatch(String method, Object actual, JsonNode expected) {
        boolean same;
        if (expected.isBoolean()) {
            same = Boolean.valueOf(expected.booleanValue()).equals(actual);
        } else if (expected.isTextual()) {
            same = actual instanceof String s && s.startsWith(expected.asText());
        } else if (expected.isIntegralNumber()) {
            same = MonitorVectorSupport.exact(expected).equals(actual);
        } else {
            return method + ": unsupported expectation " + expected;
        }
        return same ? null : method + " returned " + printable(actual) + ", expected " + expected;
    }

    private static String printable(Object value) {
        return value instanceof String s ? "'" + s.replace("\0", "") + "'" : String.valueOf(value);
    }
}
