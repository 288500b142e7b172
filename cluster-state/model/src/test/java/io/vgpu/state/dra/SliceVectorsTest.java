package io.vgpu.state.dra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.state.codec.Decoded;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the slice vectors ({@code src/test/resources/dra/slice-vectors.json}, schema {@value #SCHEMA}) and,
 * with {@code -Dvgpu.conformance.dir=<dir>}, every file of that schema there: the builder, the validator
 * and the version normalisation against spec/dra-spec.md §7 items 1–3 (the file's description says how a
 * case reads). Every slice a build case makes must also pass the validator.
 */
class SliceVectorsTest {

    static final String SCHEMA = "vgpu-dra-slices/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> vectors() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode file : files()) {
            Set<String> ids = new HashSet<>();
            for (JsonNode c : file.path("cases")) {
                String id = c.path("id").asText();
                assertThat(ids.add(id)).as("case ids are unique: " + id).isTrue();
                tests.add(DynamicTest.dynamicTest(id + " " + c.path("description").asText(), () -> run(c)));
            }
        }
        assertThat(tests).as("vectors found").isNotEmpty();
        return tests.stream();
    }

    private static List<JsonNode> files() {
        List<JsonNode> out = new ArrayList<>();
        try (InputStream in = SliceVectorsTest.class.getResourceAsStream("/dra/slice-vectors.json")) {
            out.add(JSON.readTree(in));
            String extra = System.getProperty("vgpu.conformance.dir", "").trim();
            if (!extra.isEmpty() && !extra.contains("${")) {
                try (Stream<Path> listing = Files.list(Path.of(extra))) {
                    for (Path p : listing.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                        JsonNode doc = JSON.readTree(p.toFile());
                        if (SCHEMA.equals(doc.path("schema").asText())) {
                            out.add(doc);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static void run(JsonNode c) {
        switch (c.path("op").asText()) {
            case "build" -> build(c.path("input"), c.path("expect"));
            case "validate" -> validate(c.path("input"), c.path("expect"));
            case "normalize_version" -> {
                JsonNode expected = c.path("expect").path("version");
                assertThat(SemanticVersions.normalize(c.path("input").path("text").asText()))
                        .isEqualTo(expected.isNull() ? Optional.empty() : Optional.of(expected.asText()));
            }
            default -> throw new AssertionError("unknown op " + c.path("op"));
        }
    }

    private static void build(JsonNode input, JsonNode expect) {
        SliceBuild built = SliceBuilder.build(input(input));
        SliceObject object = new SliceObject(input.path("node").asText() + "-gpu.vgpu.io", "", Optional.empty(), built.content());
        assertThat(SliceValidator.validate(object.name(), built.content())).as("the built slice is valid").isEmpty();
        JsonNode spec = ResourceSliceCodec.toJson(object).path("spec");
        if (expect.has("spec")) {
            assertSubset("spec", expect.path("spec"), spec);
        }
        for (JsonNode path : expect.path("absent")) {
            assertThat(find(spec, path.asText())).as(path.asText() + " is absent").isNull();
        }
        if (expect.has("left")) {
            List<String> expected = new ArrayList<>();
            expect.path("left").forEach(l -> expected.add(l.path("uuid").asText() + ": " + l.path("reason").asText()));
            assertThat(built.left().stream().map(l -> l.uuid() + ": " + l.reason()).toList()).isEqualTo(expected);
        }
    }

    private static void validate(JsonNode input, JsonNode expect) {
        ObjectNode slice = input.path("slice").deepCopy();
        ArrayNode devices = (ArrayNode) slice.path("spec").path("devices");
        if (input.has("replicate_devices")) {
            JsonNode template = devices.get(0);
            devices.removeAll();
            for (int i = 0; i < input.path("replicate_devices").asInt(); i++) {
                ((ObjectNode) devices.addObject().setAll((ObjectNode) template.deepCopy())).put("name", "gpu-" + i);
            }
        }
        for (int i = 0; i < input.path("extra_attributes").asInt(0); i++) {
            ((ObjectNode) devices.get(0).path("attributes")).putObject("x" + i).put("int", i);
        }
        Decoded<SliceObject> decoded = ResourceSliceCodec.fromJson(slice);
        List<String> problems = decoded.isOk()
                ? SliceValidator.validate(decoded.value().name(), decoded.value().content())
                : List.of(decoded.error());
        assertThat(problems.isEmpty()).as("valid: " + problems).isEqualTo(expect.path("valid").asBoolean());
        for (JsonNode wanted : expect.path("problems")) {
            assertThat(problems).as("a problem mentions " + wanted.asText()).anyMatch(p -> p.contains(wanted.asText()));
        }
        if (expect.has("problem_count")) {
            assertThat(problems).as("problems").hasSize(expect.path("problem_count").asInt());
        }
    }

    static SliceInput input(JsonNode in) {
        List<SliceGpu> gpus = new ArrayList<>();
        for (JsonNode g : in.path("gpus")) {
            gpus.add(new SliceGpu(g.path("uuid").asText(), g.path("index").asInt(),
                    g.path("minor").isInt() ? OptionalInt.of(g.path("minor").asInt()) : OptionalInt.empty(),
                    g.path("productName").asText(""),
                    g.path("memoryBytes").isNumber() ? OptionalLong.of(g.path("memoryBytes").asLong()) : OptionalLong.empty(),
                    g.path("numa").isInt() ? OptionalInt.of(g.path("numa").asInt()) : OptionalInt.empty(),
                    text(g, "pciBusId"), text(g, "architecture"), text(g, "brand"), text(g, "cudaComputeCapability"),
                    health(g.path("health").asText("healthy"))));
        }
        JsonNode s = in.path("settings");
        List<String> uuids = new ArrayList<>();
        s.path("filterUuids").forEach(u -> uuids.add(u.asText()));
        List<Integer> indices = new ArrayList<>();
        s.path("filterIndices").forEach(i -> indices.add(i.asInt()));
        SliceSettings settings = new SliceSettings(s.path("splitCount").asInt(10), s.path("memoryScaling").asDouble(1),
                s.path("coreScaling").asDouble(1), s.path("preConfiguredMiB").asLong(0), s.path("operatingMode").asText(""),
                uuids, indices);
        Set<String> cordoned = new HashSet<>();
        in.path("cordoned").forEach(u -> cordoned.add(u.asText()));
        return new SliceInput(in.path("node").asText(), gpus, text(in, "driverVersion"), text(in, "cudaDriverVersion"),
                settings, cordoned, "withdraw".equals(in.path("taints").asText())
                ? SliceInput.TaintSupport.WITHDRAW : SliceInput.TaintSupport.TAINT);
    }

    private static GpuHealth health(String text) {
        if (text.startsWith("xid:")) {
            return GpuHealth.fatalXid(Long.parseLong(text.substring(4)));
        }
        return "unhealthy".equals(text) ? GpuHealth.UNHEALTHY : GpuHealth.HEALTHY;
    }

    private static Optional<String> text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
    }

    /** Every key of {@code expected} is in {@code actual} with a matching value; arrays match in length. */
    private static void assertSubset(String path, JsonNode expected, JsonNode actual) {
        assertThat(actual).as(path + " exists").isNotNull();
        if (expected.isObject()) {
            assertThat(actual.isObject()).as(path + " is an object: " + actual).isTrue();
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                assertSubset(path + "." + e.getKey(), e.getValue(), actual.get(e.getKey()));
            }
        } else if (expected.isArray()) {
            assertThat(actual.isArray()).as(path + " is an array: " + actual).isTrue();
            assertThat(actual.size()).as(path + " size: " + actual).isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertSubset(path + "[" + i + "]", expected.get(i), actual.get(i));
            }
        } else if (expected.isNumber()) {
            assertThat(actual.isNumber() && actual.decimalValue().compareTo(expected.decimalValue()) == 0)
                    .as(path + ": " + actual + ", expected " + expected).isTrue();
        } else {
            assertThat(actual).as(path).isEqualTo(expected);
        }
    }

    /** The node at a dotted path ({@code devices[0].attributes.<key>}; after {@code attributes.} the rest is one key). */
    private static JsonNode find(JsonNode root, String path) {
        JsonNode at = root;
        String rest = path.startsWith("spec.") ? path.substring(5) : path;
        while (at != null && !rest.isEmpty()) {
            if (rest.startsWith("attributes.")) {
                return at.get("attributes") == null ? null : at.get("attributes").get(rest.substring("attributes.".length()));
            }
            int dot = rest.indexOf('.');
            String part = dot < 0 ? rest : rest.substring(0, dot);
            rest = dot < 0 ? "" : rest.substring(dot + 1);
            int bracket = part.indexOf('[');
            if (bracket >= 0) {
                at = at.get(part.substring(0, bracket));
                at = at == null ? null : at.get(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
            } else {
                at = at.get(part);
            }
        }
        return at;
    }
}
