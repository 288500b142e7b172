package io.vgpu.hamicore.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.hamicore.SharedRegion;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiFunction;

import static io.vgpu.hamicore.testing.RegionImages.unsigned;

/**
 * HAMi's {@code UsageInfo} method names, as the vectors spell them, mapped onto {@link SharedRegion}. Getters return
 * BigInteger (unsigned for uint64 results), Boolean or String; setters take the vector's JSON argument. Shared by
 * hamicore-jni's and device-plugin's vector runners (hamicore-jni's test jar).
 */
public final class UsageInfoCalls {

    private static final Map<String, BiFunction<SharedRegion, Integer, Object>> GETTERS = Map.ofEntries(
            Map.entry("DeviceMax", (r, i) -> BigInteger.valueOf(r.deviceMax())),
            Map.entry("DeviceNum", (r, i) -> BigInteger.valueOf(r.deviceNum())),
            Map.entry("DeviceMemoryContextSize", (r, i) -> unsigned(r.deviceMemoryContextSize(i))),
            Map.entry("DeviceMemoryModuleSize", (r, i) -> unsigned(r.deviceMemoryModuleSize(i))),
            Map.entry("DeviceMemoryBufferSize", (r, i) -> unsigned(r.deviceMemoryBufferSize(i))),
            Map.entry("DeviceMemoryOffset", (r, i) -> unsigned(r.deviceMemoryOffset(i))),
            Map.entry("DeviceMemoryTotal", (r, i) -> unsigned(r.deviceMemoryTotal(i))),
            Map.entry("DeviceSmUtil", (r, i) -> unsigned(r.deviceSmUtil(i))),
            Map.entry("DeviceMemoryLimit", (r, i) -> unsigned(r.deviceMemoryLimit(i))),
            Map.entry("DeviceSmLimit", (r, i) -> unsigned(r.deviceSmLimit(i))),
            Map.entry("IsValidUUID", (r, i) -> r.isValidUuid(i)),
            // Go's DeviceUUID returns all 96 bytes, NULs included: expectations are prefixes of it
            Map.entry("DeviceUUID", (r, i) -> new String(r.deviceUuidBytes(i), StandardCharsets.ISO_8859_1)),
            Map.entry("LastKernelTime", (r, i) -> BigInteger.valueOf(r.lastKernelTime())),
            Map.entry("GetPriority", (r, i) -> BigInteger.valueOf(r.priority())),
            Map.entry("GetRecentKernel", (r, i) -> BigInteger.valueOf(r.recentKernel())),
            Map.entry("GetUtilizationSwitch", (r, i) -> BigInteger.valueOf(r.utilizationSwitch())));

    private UsageInfoCalls() {
    }

    /** Whether {@code method} is a getter this class knows. */
    public static boolean isGetter(String method) {
        return GETTERS.containsKey(method);
    }

    /** Calls a getter; {@code idx} is ignored by methods without an index. */
    public static Object get(SharedRegion region, String method, int idx) {
        BiFunction<SharedRegion, Integer, Object> getter = GETTERS.get(method);
        if (getter == null) {
            throw new IllegalArgumentException("no UsageInfo getter " + method);
        }
        return getter.apply(region, idx);
    }

    /** Calls a setter with the vector's argument. */
    public static void set(SharedRegion region, String method, JsonNode arg) {
        BigInteger value = RegionImages.exact(arg);
        switch (method) {
            case "SetRecentKernel" -> region.setRecentKernel(value.intValueExact());
            case "SetUtilizationSwitch" -> region.setUtilizationSwitch(value.intValueExact());
            case "SetDeviceSmLimit" -> region.setDeviceSmLimit(value.longValue());
            case "SetDeviceMemoryLimit" -> region.setDeviceMemoryLimit(value.longValue());
            default -> throw new IllegalArgumentException("no UsageInfo setter " + method);
        }
    }

    /**
     * Compares a getter's result with a vector's expectation; null when they agree, else what differs. Text
     * expectations are prefixes (see DeviceUUID).
     */
    public static String mismatch(String method, Object actual, JsonNode expected) {
        boolean same;
        if (expected.isBoolean()) {
            same = Boolean.valueOf(expected.booleanValue()).equals(actual);
        } else if (expected.isTextual()) {
            same = actual instanceof String s && s.startsWith(expected.asText());
        } else if (expected.isIntegralNumber()) {
            same = RegionImages.exact(expected).equals(actual);
        } else {
            return method + ": unsupported expectation " + expected;
        }
        return same ? null : method + " returned " + printable(actual) + ", expected " + expected;
    }

    private static String printable(Object value) {
        return value instanceof String s ? "'" + s.replace("\0", "") + "'" : String.valueOf(value);
    }
}
