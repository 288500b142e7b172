package io.vgpu.gateway.extender;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streamed {@code /filter} decode answers exactly as the whole-tree decode: the same arguments for every body
 * that decodes, the same error text for every body that does not.
 */
class ExtenderDecoderTest {

    private static final String POD = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u1\","
            + "\"annotations\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
            + "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}";

    static Stream<Arguments> bodies() {
        return Stream.of(
                Arguments.of("pod and names", "{\"Pod\":" + POD + ",\"NodeNames\":[\"a\",\"b\",\"c\"]}"),
                Arguments.of("names first", "{\"NodeNames\":[\"a\"],\"Pod\":" + POD + "}"),
                Arguments.of("lower-case names", "{\"pod\":" + POD + ",\"nodenames\":[\"a\",\"b\"]}"),
                Arguments.of("exact name wins over an earlier other case",
                        "{\"nodenames\":[\"x\"],\"NodeNames\":[\"a\"]}"),
                Arguments.of("first other case wins without the exact name",
                        "{\"nodenames\":[\"x\"],\"NODENAMES\":[\"a\"]}"),
                Arguments.of("repeated name: last value", "{\"NodeNames\":[\"x\"],\"NodeNames\":[\"a\",\"b\"]}"),
                Arguments.of("repeated name, array then string", "{\"NodeNames\":[\"x\"],\"NodeNames\":\"a\"}"),
                Arguments.of("repeated name, string then array", "{\"NodeNames\":\"x\",\"NodeNames\":[\"a\"]}"),
                Arguments.of("empty names", "{\"NodeNames\":[]}"),
                Arguments.of("null names", "{\"NodeNames\":null}"),
                Arguments.of("names a string", "{\"NodeNames\":\"a\"}"),
                Arguments.of("names an object", "{\"NodeNames\":{\"a\":1}}"),
                Arguments.of("names a number", "{\"NodeNames\":7}"),
                Arguments.of("number in names", "{\"NodeNames\":[\"a\",1,\"b\"]}"),
                Arguments.of("float in names", "{\"NodeNames\":[1.5e3]}"),
                Arguments.of("bool in names", "{\"NodeNames\":[true]}"),
                Arguments.of("null in names", "{\"NodeNames\":[\"a\",null]}"),
                Arguments.of("array in names", "{\"NodeNames\":[[\"a\"],\"b\"]}"),
                Arguments.of("object in names, then a number", "{\"NodeNames\":[{\"x\":[1,2]},3]}"),
                Arguments.of("escaped names", "{\"NodeNames\":[\"a\\u00e9\\\"b\",\"\\n\"]}"),
                Arguments.of("unicode names", "{\"NodeNames\":[\"nœud-1\"]}"),
                Arguments.of("no pod", "{\"NodeNames\":[\"a\"]}"),
                Arguments.of("null pod", "{\"Pod\":null,\"NodeNames\":[\"a\"]}"),
                Arguments.of("pod a string", "{\"Pod\":\"x\",\"NodeNames\":[\"a\"]}"),
                Arguments.of("nodes mode", "{\"Pod\":" + POD + ",\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n1\"}}]}}"),
                Arguments.of("nodes wrong type", "{\"Nodes\":[1]}"),
                Arguments.of("nodes items wrong type", "{\"Nodes\":{\"items\":3}}"),
                Arguments.of("both names and nodes", "{\"NodeNames\":[\"a\"],\"Nodes\":{\"items\":[]}}"),
                Arguments.of("unknown fields", "{\"X\":[1,{\"y\":null}],\"NodeNames\":[\"a\"],\"Z\":true}"),
                Arguments.of("empty object", "{}"),
                Arguments.of("root array", "[\"a\"]"),
                Arguments.of("root string", "\"a\""),
                Arguments.of("root number", "12"),
                Arguments.of("root null", "null"),
                Arguments.of("whitespace only", "   \n"),
                Arguments.of("empty", ""),
                Arguments.of("truncated in names", "{\"NodeNames\":[\"a\",\"b"),
                Arguments.of("truncated after names", "{\"NodeNames\":[\"a\"]"),
                Arguments.of("missing comma in names", "{\"NodeNames\":[\"a\" \"b\"]}"),
                Arguments.of("trailing comma in names", "{\"NodeNames\":[\"a\",]}"),
                Arguments.of("syntax error after names", "{\"NodeNames\":[\"a\"],\"Pod\":{]}"),
                Arguments.of("trailing garbage", "{\"NodeNames\":[\"a\"]} xyz"),
                Arguments.of("second document", "{\"NodeNames\":[\"a\"]}{\"NodeNames\":[\"b\"]}"),
                Arguments.of("single quotes", "{'NodeNames':['a']}"),
                Arguments.of("comment", "{/* c */\"NodeNames\":[\"a\"]}"),
                Arguments.of("control character in a name", "{\"NodeNames\":[\"a\u0001\"]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void streamedDecodeAnswersAsTheTreeDecode(String name, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        assertThat(ExtenderDecoder.filterArgs(bytes)).isEqualTo(ExtenderDecoder.filterArgsFromTree(bytes));
    }

    @Test
    void nullBodyIsEof() {
        assertThat(ExtenderDecoder.filterArgs(null)).isEqualTo(new ExtenderDecoder.Result.Invalid<>("EOF"));
    }

    @Test
    void namesAreDecodedInOrder() {
        ExtenderDecoder.Result<ExtenderArgs> r = ExtenderDecoder.filterArgs(
                "{\"NodeNames\":[\"b\",\"a\",\"b\"]}".getBytes(StandardCharsets.UTF_8));
        assertThat(r).isInstanceOfSatisfying(ExtenderDecoder.Result.Valid.class,
                v -> assertThat(((ExtenderArgs) v.value()).nodeNames()).containsExactly("b", "a", "b"));
    }

    @Test
    void everyTruncationAndCorruptionAnswersAsTheTreeDecode() {
        String valid = "{\"Pod\":" + POD + ",\"NodeNames\":[\"a\",\"b\",null,\"c\"],\"nodenames\":[\"d\"],"
                + "\"Nodes\":null}";
        byte[] bytes = valid.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThat(ExtenderDecoder.filterArgs(truncated)).as("cut at %d", cut)
                    .isEqualTo(ExtenderDecoder.filterArgsFromTree(truncated));
        }
        byte[] alphabet = "{}[],:\"\\ an01-tfe".getBytes(StandardCharsets.UTF_8);
        Random rnd = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            byte[] corrupt = bytes.clone();
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                corrupt[rnd.nextInt(corrupt.length)] = alphabet[rnd.nextInt(alphabet.length)];
            }
            assertThat(ExtenderDecoder.filterArgs(corrupt)).as("corruption %d: %s", i,
                    new String(corrupt, StandardCharsets.UTF_8)).isEqualTo(ExtenderDecoder.filterArgsFromTree(corrupt));
        }
    }
}
