package io.vgpu.hamicore;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.util.function.BiFunction;
import java.util.Map;

/**
 * HAMi's {@code UsageInfo} method names (as the vectors spell them) mapped onto {@link SharedRegion}.
 * Getters return BigInteger (unsigned for uint64 results), Boolean or String; setters return null.
 */
final class UsageInfoCalls {

    private static final Map<String, BiFunction<SharedRegion, Integer, Object>> GETTERS = Map.ofEntries(
            Map.entry("DeviceMax", (r, i) -> BigInteger.valueOf(r.deviceMax())),
            Map.entry("DeviceNum", (r, i) -> BigInteger.valueOf(r.deviceNum())),
            Map.entry("DeviceMemoryContextSize", (r, i) -> unsigned(r.deviceMemoryContextSize(i))),
            Map.entry("DeviceMemoryModuleSize", (r, i) -> unsigned(r.deviceMemoryModuleSize(i))),
            Map.entry("DeviceMemoryBufferSize", (r, i) -> unsigned(r.deviceMemoryBufferSize(i))),
            Map.entry("DeviceMemoryOffset", (r, i) -> unsigned(r.deviceMemoryOffset(i))),
            Map.entry("DeviceMemoryTotal", (r, i) -> unsigned(r.deviceMemoryTotal(i))),
            Map.entry("DeviceSmUtil", (r, i) -> unsigned(r.deviceSmUtil(i))),
            Map.entry("IsValidUUID", (r, i) -> r.isValidUuid(i)),
            Map.entry("DeviceUUID", (r, i) -> r.deviceUuid(i)),
            Map.entry("DeviceMemoryLimit", (r, i) -> unsigned(r.deviceMemoryLimit(i))),
            Map.entry("LastKernelTime", (r, i) -> BigInteger.valueOf(r.lastKernelTime())),
            Map.entry("GetPriority", (r, i) -> BigInteger.valueOf(r.priority())),
            Map.entry("GetRecentKernel", (r, i) -> BigInteger.valueOf(r.recentKernel())),
            Map.entry("GetUtilizationSwitch", (r, i) -> BigInteger.valueOf(r.utilizationSwitch())));

    private UsageInfoCalls() {
    }

    static boolean isGetter(String method) {
        return GETTERS.containsKey(method);
    }

    /** Calls a getter; idx is ignored by methods without an index. */
    static Object get(SharedRegion region, String method, int idx) {
        BiFunction<SharedRegion, Integer, Object> getter = GETTERS.get(method);
        if (getter == null) {
            throw new IllegalArgumentException("no UsageInfo getter " + method);
        }
        return getter.apply(region, idx);
    }

    /** Calls a setter with its JSON argument. */
    static void set(SharedRegion region, String method, JsonNode arg) {
        BigInteger value = RegionImage.exact(arg);
        switch (method) {
            case "SetRecentKernel" -> region.setRecentKernel(value.intValueExact());
            case "SetUtilizationSwitch" -> region.setUtilizationSwitch(value.intValueExact());
            case "SetDeviceSmLimit" -> region.setDeviceSmLimit(value.longValue());
            case "SetDeviceMemoryLimit" -> region.setDeviceMemoryLimit(value.longValue());
            default -> throw new IllegalArgumentException("no UsageInfo setter " + method);
        }
    }

    /** Compares a getter result with a vector's expectation; DeviceUUID expectations are prefixes. */
    static String mismatch(String method, Object actual, JsonNode expected) {
        boolean same;
        if (expected.isBoolean()) {
            same = Boolean.valueOf(expected.booleanValue()).equals(actual);
        } else if (expected.isTextual()) {
            same = actual instanceof String s && s.startsWith(expected.asText());
        } else if (expected.isIntegralNumber()) {
            same = RegionImage.exact(expected).equals(actual);
        } else {
            return method + ": unsupported expectation " + expected;
        }
        return same ? null : method + " returned " + actual + ", expected " + expected;
    }

    private static BigInteger unsigned(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }
}
