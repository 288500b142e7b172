package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Adversarial requests for the three API endpoints, from a seed: a well-formed body of the endpoint's protocol
 * (AdmissionReview, ExtenderArgs, ExtenderBindingArgs) for a pod that was never admitted, then bent by one or two
 * mutations (malformed JSON, wrong types, huge numbers, odd Unicode, deep nesting, repeated and case-variant keys,
 * invalid names and UIDs, odd quantities and annotations, many containers or nodes, oversize, empty), sent with a
 * content type drawn from JSON, form, multipart, text or none.
 */
final class FuzzInputs {

    /** One request. */
    record Request(String endpoint, String contentType, byte[] body, String label) {
    }

    private static final List<String> CONTENT_TYPES = Arrays.asList(null, "application/json",
            "application/json; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data",
            "multipart/form-data; boundary=--x", "text/plain", "application/octet-stream", "*/*", "application/json;;;",
            "application/yaml");
    private static final List<String> ODD_STRINGS = List.of("", " ", "A", "a_b", "a/b", "../../x", "a?b=c", "a#b",
            "%2e%2e", "..", ".", "-a", "a-", "a".repeat(254), "n".repeat(64), "pöd", "🚀", "\u202eevil", "a\u0000b",
            "a\nb", "\ud800", "x".repeat(5_000), "default/../kube-system", "Ｆｕｌｌ", "ſ", "K");
    private static final List<String> ODD_UIDS = List.of("", "u-1", "0f8fad5b-d9cb-469f-a165-70867728950", "ZZZ",
            "0F8FAD5B-D9CB-469F-A165-70867728950E", "0f8fad5b-d9cb-469f-a165-70867728950e/../x",
            "../0f8fad5b-d9cb-469f-a165-70867728950e", "٠f8fad5b-d9cb-469f-a165-70867728950e");
    private static final List<String> ODD_QUANTITIES = List.of("1e309", "-1", "0.0000001", "1Ei", "NaN", "1.5",
            "99999999999999999999999999", "9223372036854775808", "0x10", "1e-999", "+1", "1 ", "", "∞", "1Mi", "-0",
            "100%");
    private static final List<String> HAMI_ANNOTATIONS = List.of("hami.io/vgpu-node", "hami.io/vgpu-devices-allocated",
            "hami.io/vgpu-devices-to-allocate", "hami.io/bind-phase", "nvidia.com/use-gpuuuid",
            "nvidia.com/nouse-gpuuuid", "nvidia.com/use-gputype", "hami.io/node-scheduler-policy",
            "hami.io/gpu-scheduler-policy", "nvidia.com/vgpu-mode", "hami.io/numa-bind");

    private final Random rnd;
    private final List<String> nodes;

    /**
     * @param seed  the seed (a run is repeated by its seed)
     * @param nodes registered nodes, named in filter and bind requests among others
     */
    FuzzInputs(long seed, List<String> nodes) {
        this.rnd = new Random(seed);
        this.nodes = List.copyOf(nodes);
    }

    /** The next request. */
    Request next() {
        int which = rnd.nextInt(3);
        String endpoint = which == 0 ? "/webhook" : which == 1 ? "/filter" : "/bind";
        JsonNode base = which == 0 ? review() : which == 1 ? filterArgs() : bindArgs();
        String label = "base";
        byte[] body;
        int kind = rnd.nextInt(100);
        if (kind < 8) {
            body = utf8(base.toString());
        } else if (kind < 14) {
            String cut = base.toString();
            body = utf8(cut.substring(0, rnd.nextInt(cut.length())));
            label = "truncated";
        } else if (kind < 22) {
            body = corrupt(utf8(base.toString()));
            label = "corrupted";
        } else if (kind < 34) {
            body = utf8(wrongType(base).toString());
            label = "wrong type";
        } else if (kind < 40) {
            body = utf8(hugeNumber(base.toString()));
            label = "huge number";
        } else if (kind < 48) {
            body = unicode(base);
            label = "unicode";
        } else if (kind < 53) {
            body = utf8(deep(base));
            label = "deep nesting";
        } else if (kind < 63) {
            body = utf8(duplicateKeys(base));
            label = "repeated and case-variant keys";
        } else if (kind < 75) {
            body = utf8(invalidIdentity(base).toString());
            label = "invalid names and UIDs";
        } else if (kind < 83) {
            body = utf8(oddPodFields(base).toString());
            label = "odd quantities and annotations";
        } else if (kind < 84) {
            // the costly inputs are rare, as they are in a cluster: one in a hundred each
            body = utf8(large(base).toString());
            label = "many containers or nodes";
        } else if (kind < 85) {
            body = oversize(endpoint, base.toString());
            label = "oversize";
        } else if (kind < 94) {
            body = utf8(pick(List.of("", " ", "\n", "null", "[]", "{}", "\"x\"", "0", "true", "[{}]", "{\"\":1}",
                    "{}{}", "\ufeff{}")));
            label = "empty or bare";
        } else {
            body = utf8(wrongType(invalidIdentity(base)).toString());
            label = "invalid names and a wrong type";
        }
        return new Request(endpoint, pick(CONTENT_TYPES), body, label);
    }

    // ------------------------------------------------------------------ well-formed bodies

    private JsonNode review() {
        ObjectNode review = E2eCluster.JSON.createObjectNode()
                .put("apiVersion", rnd.nextBoolean() ? "admission.k8s.io/v1" : "admission.k8s.io/v1beta1")
                .put("kind", "AdmissionReview");
        String ns = "fuzz-" + rnd.nextInt(5);
        review.putObject("request").put("uid", UUID.randomUUID().toString()).put("namespace", ns)
                .put("operation", "CREATE").set("object", pod(ns, "", 1 + rnd.nextInt(3)));
        return review;
    }

    private JsonNode filterArgs() {
        ObjectNode args = E2eCluster.JSON.createObjectNode();
        String ns = "fuzz-" + rnd.nextInt(5);
        args.set("Pod", pod(ns, UUID.randomUUID().toString(), 1 + rnd.nextInt(3)));
        args.putNull("Nodes");
        ArrayNode names = args.putArray("NodeNames");
        nodes.forEach(names::add);
        if (rnd.nextBoolean()) {
            names.add("absent-" + rnd.nextInt(100));
        }
        return args;
    }

    private JsonNode bindArgs() {
        return E2eCluster.JSON.createObjectNode().put("PodName", "never-" + rnd.nextInt(1_000))
                .put("PodNamespace", "fuzz-" + rnd.nextInt(5)).put("PodUID", UUID.randomUUID().toString())
                .put("Node", pick(nodes));
    }

    /** A pod that asks for GPU slices; {@code uid} "" leaves it out (admission). */
    private ObjectNode pod(String namespace, String uid, int containers) {
        ObjectNode pod = E2eCluster.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata").put("name", "never-" + rnd.nextInt(1_000))
                .put("namespace", namespace);
        if (!uid.isEmpty()) {
            meta.put("uid", uid);
        }
        ObjectNode spec = pod.putObject("spec").put("schedulerName",
                rnd.nextBoolean() ? "default-scheduler" : E2eCluster.SCHEDULER);
        ArrayNode list = spec.putArray("containers");
        for (int i = 0; i < containers; i++) {
            ObjectNode limits = list.addObject().put("name", "c" + i).put("image", "cuda")
                    .putObject("resources").putObject("limits").put("nvidia.com/gpu", Integer.toString(1
                            + rnd.nextInt(2)));
            if (rnd.nextBoolean()) {
                limits.put("nvidia.com/gpumem", Integer.toString(100 + rnd.nextInt(8_000)));
            } else {
                limits.put("nvidia.com/gpumem-percentage", Integer.toString(1 + rnd.nextInt(100)));
            }
        }
        return pod;
    }

    // ------------------------------------------------------------------ mutations

    private byte[] corrupt(byte[] body) {
        byte[] out = body.clone();
        byte[] alphabet = "{}[],:\"\\ an01-tfe\u0000".getBytes(StandardCharsets.UTF_8);
        for (int k = 1 + rnd.nextInt(3); k > 0 && out.length > 0; k--) {
            out[rnd.nextInt(out.length)] = alphabet[rnd.nextInt(alphabet.length)];
        }
        return out;
    }

    /** One value somewhere in the tree replaced by a value of another JSON type. */
    private JsonNode wrongType(JsonNode base) {
        JsonNode copy = base.deepCopy();
        List<ObjectNode> parents = new ArrayList<>();
        collectObjects(copy, parents);
        ObjectNode parent = pick(parents);
        List<String> names = new ArrayList<>();
        parent.fieldNames().forEachRemaining(names::add);
        if (names.isEmpty()) {
            return copy;
        }
        String name = pick(names);
        switch (rnd.nextInt(7)) {
            case 0 -> parent.put(name, rnd.nextInt());
            case 1 -> parent.put(name, rnd.nextBoolean());
            case 2 -> parent.putNull(name);
            case 3 -> parent.putArray(name).add(1).add("x");
            case 4 -> parent.putObject(name).put("x", 1);
            case 5 -> parent.put(name, 1.5e300);
            default -> parent.put(name, "x");
        }
        return copy;
    }

    private String hugeNumber(String json) {
        String number = pick(List.of("1e999999", "-1e999999", "9".repeat(400), "9".repeat(5_000), "1.0e-400",
                "123456789012345678901234567890", "-0.0"));
        return json.replaceFirst("\"(nvidia.com/gpu|nvidia.com/gpumem|nvidia.com/gpumem-percentage|uid|PodUID)\":\"[^\"]*\"",
                "\"$1\":" + number);
    }

    private byte[] unicode(JsonNode base) {
        switch (rnd.nextInt(5)) {
            case 0 -> {
                // invalid UTF-8 inside a string
                byte[] body = utf8(base.toString());
                int quote = indexOf(body, (byte) '"', rnd.nextInt(Math.max(1, body.length / 2)));
                if (quote < 0) {
                    return body;
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(body, 0, quote + 1);
                out.write(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        0, 6);
                out.write(body, quote + 1, body.length - quote - 1);
                return out.toByteArray();
            }
            case 1 -> {
                return ("\ufeff" + base).getBytes(StandardCharsets.UTF_8);
            }
            case 2 -> {
                return base.toString().getBytes(StandardCharsets.UTF_16);
            }
            default -> {
                JsonNode copy = base.deepCopy();
                setStrings(copy, List.of("name", "namespace", "PodName", "PodNamespace", "Node", "schedulerName"),
                        () -> pick(List.of("🚀-pod", "pöd", "\u202ertl", "a\u0000b", "\ud800x", "Ｆｕｌｌ", "ſ", "K")));
                return utf8(copy.toString());
            }
        }
    }

    private String deep(JsonNode base) {
        int depth = pick(List.of(100, 999, 1_001, 5_000, 50_000));
        String open = rnd.nextBoolean() ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        String nested = open.repeat(depth) + "1" + close.repeat(depth);
        String json = base.toString();
        int brace = json.lastIndexOf('}');
        return json.substring(0, brace) + ",\"" + pick(List.of("Pod", "NodeNames", "request", "x", "PodUID")) + "\":"
                + nested + json.substring(brace);
    }

    /** Top-level and nested keys repeated, some in another case, with other values. */
    private String duplicateKeys(JsonNode base) {
        String json = base.toString();
        Iterator<Map.Entry<String, JsonNode>> fields = base.fields();
        List<String> names = new ArrayList<>();
        fields.forEachRemaining(f -> names.add(f.getKey()));
        String name = pick(names);
        String variant = switch (rnd.nextInt(4)) {
            case 0 -> name.toLowerCase(java.util.Locale.ROOT);
            case 1 -> name.toUpperCase(java.util.Locale.ROOT);
            case 2 -> name;
            default -> name.replace('s', 'ſ').replace('k', 'K');
        };
        String value = pick(List.of("null", "1", "\"x\"", "[]", "{}", "\"" + UUID.randomUUID() + "\"",
                base.get(name).toString()));
        int brace = json.lastIndexOf('}');
        String appended = json.substring(0, brace) + ",\"" + variant + "\":" + value + "}";
        return rnd.nextBoolean() ? appended : "{\"" + variant + "\":" + value + "," + json.substring(1);
    }

    private JsonNode invalidIdentity(JsonNode base) {
        JsonNode copy = base.deepCopy();
        Supplier<String> odd = () -> pick(ODD_STRINGS);
        switch (rnd.nextInt(4)) {
            case 0 -> setStrings(copy, List.of("name", "PodName"), odd);
            case 1 -> setStrings(copy, List.of("namespace", "PodNamespace"), odd);
            case 2 -> setStrings(copy, List.of("uid", "PodUID"), () -> pick(ODD_UIDS));
            default -> setStrings(copy, List.of("Node"), odd);
        }
        if (copy.has("NodeNames") && rnd.nextBoolean()) {
            ((ArrayNode) copy.get("NodeNames")).add(odd.get());
        }
        return copy;
    }

    private JsonNode oddPodFields(JsonNode base) {
        JsonNode copy = base.deepCopy();
        List<ObjectNode> parents = new ArrayList<>();
        collectObjects(copy, parents);
        for (ObjectNode o : parents) {
            if (o.has("nvidia.com/gpu")) {
                o.put(pick(List.of("nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpumem-percentage",
                        "nvidia.com/gpucores", "nvidia.com/priority")), pick(ODD_QUANTITIES));
            }
            if (o.has("name") && o.has("namespace")) {
                ObjectNode annotations = o.putObject("annotations");
                for (int i = rnd.nextInt(4); i >= 0; i--) {
                    annotations.put(pick(HAMI_ANNOTATIONS), pick(List.of("", "x", "GPU-x,NVIDIA,1024,0:;",
                            ";;;;", "GPU-a,NVIDIA,-1,0:;", "binpack", "spread,,", "1".repeat(2_000), "node-0",
                            "GPU-" + UUID.randomUUID(), "success", "allocating", "💥")));
                }
            }
        }
        return copy;
    }

    private JsonNode large(JsonNode base) {
        JsonNode copy = base.deepCopy();
        if (copy.has("NodeNames")) {
            ArrayNode names = (ArrayNode) copy.get("NodeNames");
            for (int i = 0; i < 10_000; i++) {
                names.add("n-" + i);
            }
            return copy;
        }
        List<ObjectNode> parents = new ArrayList<>();
        collectObjects(copy, parents);
        for (ObjectNode o : parents) {
            if (o.has("containers")) {
                ArrayNode list = (ArrayNode) o.get("containers");
                JsonNode first = list.get(0);
                for (int i = 0; i < 3_000; i++) {
                    list.add(((ObjectNode) first.deepCopy()).put("name", "c-" + i));
                }
            }
        }
        return copy;
    }

    private byte[] oversize(String endpoint, String json) {
        int limit = endpoint.equals("/webhook") ? 7 * 1024 * 1024 : 1024 * 1024;
        char[] pad = new char[limit + 1 - json.length() + rnd.nextInt(1_000)];
        Arrays.fill(pad, ' ');
        return utf8(json.substring(0, json.length() - 1) + new String(pad) + "}");
    }

    // ------------------------------------------------------------------ helpers

    private static void collectObjects(JsonNode node, List<ObjectNode> into) {
        if (node instanceof ObjectNode o) {
            into.add(o);
        }
        node.elements().forEachRemaining(child -> collectObjects(child, into));
    }

    private static void setStrings(JsonNode node, List<String> names, Supplier<String> value) {
        if (node instanceof ObjectNode o) {
            for (String name : names) {
                if (o.has(name) && o.get(name).isTextual()) {
                    o.put(name, value.get());
                }
            }
        }
        node.elements().forEachRemaining(child -> setStrings(child, names, value));
    }

    private static int indexOf(byte[] body, byte b, int from) {
        for (int i = from; i < body.length; i++) {
            if (body[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private <T> T pick(List<T> from) {
        return from.get(rnd.nextInt(from.size()));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
