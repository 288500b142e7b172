package io.vgpu.gateway.core.dra;

import io.vgpu.gateway.core.fit.GoText;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * HAMi's device filter annotations as CEL selectors on the attributes the node agent publishes
 * ({@link io.vgpu.state.dra.SliceBuilder}), with HAMi's parsing ({@link io.vgpu.gateway.core.fit.AnnotationFilters}):
 * <pre>
 *   nvidia.com/use-gputype: A100,H100  →  (a.productName.upperAscii().contains('A100') || …contains('H100'))
 *   nvidia.com/nouse-gputype: T4       →  !(a.productName.upperAscii().contains('T4'))
 *   nvidia.com/use-gpuuuid: U1,U2      →  a.uuid in ['U1', 'U2']
 *   nvidia.com/nouse-gpuuuid: U3       →  !(a.uuid in ['U3'])
 *   nvidia.com/vgpu-mode: hami-core    →  'hami-core'.contains(a.mode)
 * </pre>
 * where {@code a} is {@code device.attributes['gpu.vgpu.io']}. Type items are trimmed, upper-cased and empty ones
 * dropped; UUID items are trimmed; a blank value is no constraint, as in HAMi. One deviation: HAMi upper-cases with
 * Unicode rules, CEL's {@code upperAscii} only ASCII letters (product names are ASCII). Pure.
 */
final class CelSelectors {

    private static final String ATTRS = "device.attributes['" + DraNames.DRIVER + "']";

    private CelSelectors() {
    }

    /** The selectors of a pod's annotations, in a fixed order. */
    static List<String> of(Map<String, String> annotations) {
        List<String> out = new ArrayList<>();
        types(annotations.get(HamiAnnotations.USE_GPU_TYPE)).ifPresent(out::add);
        types(annotations.get(HamiAnnotations.NOUSE_GPU_TYPE)).map(s -> "!" + s).ifPresent(out::add);
        uuids(annotations.get(HamiAnnotations.USE_GPU_UUID)).ifPresent(out::add);
        uuids(annotations.get(HamiAnnotations.NOUSE_GPU_UUID)).map(s -> "!(" + s + ")").ifPresent(out::add);
        String mode = annotations.get(HamiAnnotations.VGPU_MODE);
        if (mode != null) {
            out.add(quote(mode) + ".contains(" + ATTRS + ".mode)");
        }
        return out;
    }

    /** The selector of the cards whose memory capacity is exactly {@code mib} MiB. */
    static String memoryIs(long mib) {
        return "device.capacity['" + DraNames.DRIVER + "'].memory.compareTo(quantity('" + mib + "Mi')) == 0";
    }

    private static java.util.Optional<String> types(String value) {
        if (value == null || GoText.trimSpace(value).isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> items = Arrays.stream(value.split(",", -1)).map(GoText::trimSpace).filter(t -> !t.isEmpty())
                .map(GoText::toUpper).toList();
        if (items.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("(" + String.join(" || ", items.stream()
                .map(t -> ATTRS + ".productName.upperAscii().contains(" + quote(t) + ")").toList()) + ")");
    }

    private static java.util.Optional<String> uuids(String value) {
        if (value == null || GoText.trimSpace(value).isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> items = Arrays.stream(value.split(",", -1)).map(GoText::trimSpace).map(CelSelectors::quote)
                .toList();
        return java.util.Optional.of(ATTRS + ".uuid in [" + String.join(", ", items) + "]");
    }

    /** A CEL single-quoted string literal. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'' -> out.append("\\'");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('\'').toString();
    }
}
