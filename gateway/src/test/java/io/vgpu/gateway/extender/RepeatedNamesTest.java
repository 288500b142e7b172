package io.vgpu.gateway.extender;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decoding with the previous request's names changes no decoded value: every list equals the one decoded without
 * them, element by element, and a name is the previous request's very string exactly where that request had the
 * same text at the same position.
 */
class RepeatedNamesTest {

    @Test
    void namesRepeatingThePreviousRequestAtTheirPositionAreItsStringsAndEveryListDecodesAsWithout() {
        Random rnd = new Random(7);
        RepeatedNames repeated = new RepeatedNames();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            names.add(String.format("gpu-node-%04d", i));
        }
        List<String> previous = List.of();
        int reused = 0;
        for (int call = 0; call < 300; call++) {
            List<String> sent = mutate(rnd, names);
            String body = body(sent);
            List<String> plain = decoded(ExtenderDecoder.filterArgs(bytes(body)));
            List<String> pooled = decoded(ExtenderDecoder.filterArgs(bytes(body), repeated));
            assertThat(pooled).as("call %d", call).isEqualTo(plain);
            for (int i = 0; i < pooled.size(); i++) {
                boolean same = i < previous.size() && previous.get(i).equals(pooled.get(i));
                if (same) {
                    assertThat(pooled.get(i)).as("call %d position %d", call, i).isSameAs(previous.get(i));
                    reused++;
                } else {
                    assertThat(pooled.get(i)).as("call %d position %d", call, i).isNotSameAs(
                            i < previous.size() ? previous.get(i) : null);
                }
            }
            previous = pooled;
        }
        assertThat(reused).as("most positions repeat").isGreaterThan(300 * 30);
    }

    @Test
    void aBodyWithoutNodeNamesLeavesThePreviousListInPlace() {
        RepeatedNames repeated = new RepeatedNames();
        List<String> first = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated));
        ExtenderDecoder.filterArgs(bytes("{\"Pod\":null}"), repeated);
        List<String> again = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated));
        assertThat(again.get(0)).isSameAs(first.get(0));
        assertThat(again.get(1)).isSameAs(first.get(1));
    }

    @Test
    void requestsRepeatingTheLastNameForNameShareOneUnmodifiableList() {
        RepeatedNames repeated = new RepeatedNames();
        List<String> first = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated));
        List<String> second = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated));
        List<String> third = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated));
        assertThat(second).isEqualTo(first).isSameAs(third);
        assertThatThrownBy(() -> third.set(0, "c")).isInstanceOf(UnsupportedOperationException.class);
        List<String> shorter = decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a"))), repeated));
        assertThat(shorter).containsExactly("a");
        assertThat(shorter.get(0)).isSameAs(first.get(0));
        assertThat(decoded(ExtenderDecoder.filterArgs(bytes(body(List.of("a", "b"))), repeated)))
                .containsExactly("a", "b").isNotSameAs(third);
    }

    /** The list as kube-scheduler might send it next: mostly the same, sometimes changed in one of many ways. */
    private static List<String> mutate(Random rnd, List<String> names) {
        List<String> out = new ArrayList<>(names);
        switch (rnd.nextInt(10)) {
            case 0 -> out.set(rnd.nextInt(out.size()), "gpu-node-" + rnd.nextInt(10_000)); // same length or not
            case 1 -> out.set(rnd.nextInt(out.size()), out.get(rnd.nextInt(out.size())) + "x");
            case 2 -> out.remove(rnd.nextInt(out.size())); // every later name moves up one position
            case 3 -> out.add(rnd.nextInt(out.size()), "gpu-node-new");
            case 4 -> out.set(rnd.nextInt(out.size()), "gpu-node-\u00e9\u00e8"); // escaped below, same length
            case 5 -> out.set(rnd.nextInt(out.size()), "");
            case 6 -> out.subList(rnd.nextInt(out.size()), out.size()).clear();
            default -> {
            }
        }
        return out;
    }

    private static String body(List<String> names) {
        StringBuilder b = new StringBuilder("{\"NodeNames\":[");
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            // non-ASCII names are sent as JSON escapes: the decoded text, not the raw bytes, is what repeats
            StringBuilder quoted = new StringBuilder();
            n.chars().forEach(c -> quoted.append(c < 128 ? Character.toString(c) : String.format("\\u%04x", c)));
            b.append(i == 0 ? "\"" : ",\"").append(quoted).append('"');
        }
        return b.append("]}").toString();
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> decoded(ExtenderDecoder.Result<ExtenderArgs> result) {
        return ((ExtenderDecoder.Result.Valid<ExtenderArgs>) result).value().nodeNames();
    }
}
