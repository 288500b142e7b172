package io.vgpu.gateway.extender;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extender bodies decode as Go's {@code encoding/json} decodes kube-scheduler's structs: field names match
 * case-insensitively and the last occurrence wins, null leaves strings alone and resets lists, the earliest type error
 * is the answer unless the body has a syntax error, a root null is the zero struct. Each row states what Go's decoder
 * gives for the body.
 */
class ExtenderDecoderTest {

    private static final String POD = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u1\","
            + "\"annotations\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
            + "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}";
    private static final String NAMES_TYPE = "json: cannot unmarshal %s into Go struct field ExtenderArgs.NodeNames "
            + "of type %s";

    /** Rows: body → the node names decoded (null: none), or the error. */
    static Stream<Arguments> names() {
        return Stream.of(
                names("pod and names", "{\"Pod\":" + POD + ",\"NodeNames\":[\"a\",\"b\",\"c\"]}", "a", "b", "c"),
                names("lower-case names", "{\"nodenames\":[\"a\",\"b\"]}", "a", "b"),
                names("the last spelling wins, the exact one first", "{\"NodeNames\":[\"a\"],\"nodenames\":[\"x\"]}",
                        "x"),
                names("the last spelling wins, the exact one last", "{\"nodenames\":[\"x\"],\"NodeNames\":[\"a\"]}",
                        "a"),
                names("a repeated exact name: the last", "{\"NodeNames\":[\"x\"],\"nodeNAMES\":[\"y\"],"
                        + "\"NodeNames\":[\"a\",\"b\"]}", "a", "b"),
                names("null after a list resets it", "{\"NodeNames\":[\"x\"],\"NODENAMES\":null}", (String[]) null),
                names("empty names", "{\"NodeNames\":[]}"),
                names("null names", "{\"NodeNames\":null}", (String[]) null),
                names("absent names", "{}", (String[]) null),
                names("null in names is an empty name", "{\"NodeNames\":[\"a\",null]}", "a", ""),
                names("escaped names", "{\"NodeNames\":[\"a\\u00e9\\\"b\",\"\\n\"]}", "aé\"b", "\n"),
                names("unicode names", "{\"NodeNames\":[\"nœud-1\"]}", "nœud-1"),
                names("unknown fields skipped", "{\"X\":[1,{\"y\":null}],\"NodeNames\":[\"a\"],\"Z\":true}", "a"),
                names("trailing garbage is not read", "{\"NodeNames\":[\"a\"]} xyz", "a"),
                names("a second document is not read", "{\"NodeNames\":[\"a\"]}{\"NodeNames\":[\"b\"]}", "a"),
                names("root null is the zero struct", "null", (String[]) null),
                error("names a string", "{\"NodeNames\":\"a\"}", NAMES_TYPE.formatted("string", "[]string")),
                error("names an object", "{\"NodeNames\":{\"a\":1}}", NAMES_TYPE.formatted("object", "[]string")),
                error("number in names", "{\"NodeNames\":[\"a\",1,\"b\"]}", NAMES_TYPE.formatted("number", "string")),
                error("bool in names", "{\"NodeNames\":[true]}", NAMES_TYPE.formatted("bool", "string")),
                error("array in names", "{\"NodeNames\":[[\"a\"],\"b\"]}", NAMES_TYPE.formatted("array", "string")),
                error("the earliest type error, even when a later value is right",
                        "{\"NodeNames\":7,\"nodenames\":[\"a\"]}", NAMES_TYPE.formatted("number", "[]string")),
                error("the earliest of two type errors", "{\"Pod\":3,\"NodeNames\":\"a\"}",
                        "json: cannot unmarshal number into Go struct field ExtenderArgs.Pod of type v1.Pod"),
                error("pod a string", "{\"Pod\":\"x\",\"NodeNames\":[\"a\"]}",
                        "json: cannot unmarshal string into Go struct field ExtenderArgs.Pod of type v1.Pod"),
                error("nodes a list", "{\"Nodes\":[1]}",
                        "json: cannot unmarshal array into Go struct field ExtenderArgs.Nodes of type v1.NodeList"),
                error("nodes items a number", "{\"Nodes\":{\"items\":3}}",
                        "json: cannot unmarshal number into Go struct field NodeList.items of type []v1.Node"),
                error("root array", "[\"a\"]", "json: cannot unmarshal array into Go value of type v1.ExtenderArgs"),
                error("root string", "\"a\"", "json: cannot unmarshal string into Go value of type v1.ExtenderArgs"),
                error("root number", "12", "json: cannot unmarshal number into Go value of type v1.ExtenderArgs"),
                error("empty", "", "EOF"),
                error("whitespace only", "   \n", "EOF"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void filterArgsDecodeAsGoDoes(String name, String body, List<String> names, String error) {
        ExtenderDecoder.Result<ExtenderArgs> r = filter(body);
        if (error != null) {
            assertThat(r).isEqualTo(new ExtenderDecoder.Result.Invalid<>(error));
        } else {
            assertThat(r).isInstanceOf(ExtenderDecoder.Result.Valid.class);
            assertThat(((ExtenderDecoder.Result.Valid<ExtenderArgs>) r).value().nodeNames()).isEqualTo(names);
        }
    }

    @Test
    void aSyntaxErrorAnywhereWinsOverATypeError() {
        assertThat(filter("{\"NodeNames\":7,\"Pod\":{]}")).isInstanceOfSatisfying(ExtenderDecoder.Result.Invalid.class,
                i -> assertThat(i.message()).startsWith("invalid JSON: "));
        assertThat(filter("[1,2")).isInstanceOfSatisfying(ExtenderDecoder.Result.Invalid.class,
                i -> assertThat(i.message()).startsWith("invalid JSON: "));
        for (String bad : List.of("{\"NodeNames\":[\"a\",\"b", "{\"NodeNames\":[\"a\" \"b\"]}", "{\"NodeNames\":[\"a\",]}",
                "{'NodeNames':['a']}", "{/* c */\"NodeNames\":[\"a\"]}", "{\"NodeNames\":[\"a\u0001\"]}",
                "{\"NodeNames\":[01]}", "{\"NodeNames\":[NaN]}")) {
            assertThat(filter(bad)).as(bad).isInstanceOfSatisfying(ExtenderDecoder.Result.Invalid.class,
                    i -> assertThat(i.message()).startsWith("invalid JSON: "));
        }
    }

    @Test
    void thePodIsTheLastOneGivenInAnySpellingAndItsFieldsMatchAsGoMatchesThem() {
        String other = "{\"METADATA\":{\"Name\":\"q\",\"namespace\":\"ns\",\"UID\":\"u2\"},\"Spec\":{\"Containers\":"
                + "[{\"name\":\"c\"}]}}";
        ExtenderArgs args = valid(filter("{\"Pod\":" + POD + ",\"pod\":" + other + "}"));

        assertThat(args.pod().name()).isEqualTo("q");
        assertThat(args.pod().uid()).isEqualTo("u2");
        assertThat(args.pod().containers()).hasSize(1);
        assertThat(valid(filter("{\"pod\":" + other + ",\"Pod\":null}")).pod()).isNull();
    }

    @Test
    void insideThePodTheLastSpellingOfAFieldWinsToo() {
        ExtenderArgs args = valid(filter("{\"Pod\":{\"metadata\":{\"name\":\"a\",\"Name\":\"b\",\"NAMESPACE\":\"x\","
                + "\"namespace\":\"ns\"},\"spec\":{\"schedulerName\":\"s1\",\"SchedulerName\":\"s2\"}},"
                + "\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n0\"}}],\"ITEMS\":[{\"metadata\":{\"name\":\"n1\"}}]}}"));

        assertThat(args.pod().name()).isEqualTo("b");
        assertThat(args.pod().namespace()).isEqualTo("ns");
        assertThat(args.pod().schedulerName()).isEqualTo("s2");
        assertThat(args.nodes()).containsOnlyKeys("n1");
    }

    @Test
    void annotationKeysStayExact() {
        ExtenderArgs args = valid(filter("{\"Pod\":{\"metadata\":{\"name\":\"p\",\"Annotations\":{\"A\":\"1\","
                + "\"a\":\"2\"}}}}"));
        assertThat(args.pod().annotations()).containsEntry("A", "1").containsEntry("a", "2");
    }

    @Test
    void simulationNodesAreKeyedByTheirGoDecodedName() {
        ExtenderArgs args = valid(filter("{\"Nodes\":{\"Items\":[{\"Metadata\":{\"NAME\":\"n1\"}},null]}}"));
        assertThat(args.nodes()).containsOnlyKeys("n1", "");
    }

    @Test
    void bindArgsDecodeAsGoDoes() {
        assertThat(valid(bind("{\"podname\":\"a\",\"PODNAMESPACE\":\"ns\",\"PodUid\":\"u\",\"node\":\"n\","
                + "\"PodName\":\"b\"}"))).isEqualTo(new ExtenderBindingArgs("b", "ns", "u", "n"));
        // null leaves a string as it was
        assertThat(valid(bind("{\"PodName\":\"a\",\"podName\":null}")).podName()).isEqualTo("a");
        assertThat(valid(bind("null"))).isEqualTo(new ExtenderBindingArgs("", "", "", ""));
        assertThat(bind("{\"PodUID\":5}")).isEqualTo(new ExtenderDecoder.Result.Invalid<>(
                "json: cannot unmarshal number into Go struct field ExtenderBindingArgs.PodUID of type types.UID"));
        assertThat(bind("{\"Node\":[\"n\"],\"PodName\":{}}")).isEqualTo(new ExtenderDecoder.Result.Invalid<>(
                "json: cannot unmarshal array into Go struct field ExtenderBindingArgs.Node of type types.NodeName"));
        assertThat(bind("")).isEqualTo(new ExtenderDecoder.Result.Invalid<>("EOF"));
    }

    @Test
    void nullBodyIsEof() {
        assertThat(ExtenderDecoder.filterArgs(null)).isEqualTo(new ExtenderDecoder.Result.Invalid<>("EOF"));
    }

    @Test
    void everyTruncationAndCorruptionIsAnsweredWithoutThrowing() {
        String valid = "{\"Pod\":" + POD + ",\"NodeNames\":[\"a\",\"b\",null,\"c\"],\"nodenames\":[\"d\"],"
                + "\"Nodes\":null}";
        byte[] bytes = valid.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            assertThat(ExtenderDecoder.filterArgs(Arrays.copyOf(bytes, cut))).as("cut at %d", cut).isNotNull();
            assertThat(ExtenderDecoder.bindingArgs(Arrays.copyOf(bytes, cut))).as("cut at %d", cut).isNotNull();
        }
        byte[] alphabet = "{}[],:\"\\ an01-tfe".getBytes(StandardCharsets.UTF_8);
        Random rnd = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            byte[] corrupt = bytes.clone();
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                corrupt[rnd.nextInt(corrupt.length)] = alphabet[rnd.nextInt(alphabet.length)];
            }
            assertThat(ExtenderDecoder.filterArgs(corrupt)).isNotNull();
        }
    }

    private static Arguments names(String name, String body, String... names) {
        return Arguments.of(name, body, names == null ? null : List.of(names), null);
    }

    private static Arguments error(String name, String body, String error) {
        return Arguments.of(name, body, null, error);
    }

    private static ExtenderDecoder.Result<ExtenderArgs> filter(String body) {
        return ExtenderDecoder.filterArgs(body.getBytes(StandardCharsets.UTF_8));
    }

    private static ExtenderDecoder.Result<ExtenderBindingArgs> bind(String body) {
        return ExtenderDecoder.bindingArgs(body.getBytes(StandardCharsets.UTF_8));
    }

    private static <T> T valid(ExtenderDecoder.Result<T> r) {
        assertThat(r).isInstanceOf(ExtenderDecoder.Result.Valid.class);
        return ((ExtenderDecoder.Result.Valid<T>) r).value();
    }
}
