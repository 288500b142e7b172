package io.vgpu.hamicore.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Byte images built from the conformance vectors' {@code writes[]}: {@code {offset, type, value}} applied to a
 * zero-filled buffer, with types {@code i32}, {@code i64}, {@code u64} (little-endian), {@code ascii} and
 * {@code bytes_hex}. Values above 2^53 are exact JSON integers. Shared by hamicore-jni's and device-plugin's vector
 * runners (hamicore-jni's test jar).
 */
public final class RegionImages {

    private RegionImages() {
    }

    /** A zero-filled image of {@code size} bytes with {@code writes} applied. */
    public static byte[] zeroFilledWith(int size, JsonNode writes) {
        byte[] image = new byte[size];
        apply(image, writes);
        return image;
    }

    /** Applies {@code writes} (null or JSON null: none) to {@code image}. */
    public static void apply(byte[] image, JsonNode writes) {
        if (writes == null || writes.isNull()) {
            return;
        }
        ByteBuffer view = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        for (JsonNode w : writes) {
            int offset = w.get("offset").intValue();
            JsonNode value = w.get("value");
            switch (w.get("type").asText()) {
                case "i32" -> view.putInt(offset, exact(value).intValueExact());
                case "i64", "u64" -> view.putLong(offset, exact(value).longValue());
                case "ascii" -> view.put(offset, value.asText().getBytes(StandardCharsets.US_ASCII));
                case "bytes_hex" -> view.put(offset, HexFormat.of().parseHex(value.asText().replace(" ", "")));
                default -> throw new IllegalArgumentException("unknown write type " + w.get("type"));
            }
        }
    }

    /** A JSON integer as an exact BigInteger (u64 values may exceed Long.MAX_VALUE). */
    public static BigInteger exact(JsonNode number) {
        if (!number.isIntegralNumber()) {
            throw new IllegalArgumentException("not an integer: " + number);
        }
        return number.bigIntegerValue();
    }

    /** A uint64 read into a long, as the unsigned value it is. */
    public static BigInteger unsigned(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }
}
