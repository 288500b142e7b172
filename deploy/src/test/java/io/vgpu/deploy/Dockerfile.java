package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The instructions of a Dockerfile that these checks need: FROM, COPY (without {@code --from}), ENV,
 * LABEL, USER, ENTRYPOINT and CMD (exec form). Continuation lines are joined, comments dropped.
 */
record Dockerfile(String from, List<Copy> copies, Map<String, String> env, Map<String, String> labels, String user,
                  List<String> entrypoint, List<String> cmd) {

    /** {@code COPY <sources...> <destination>}. */
    record Copy(List<String> sources, String destination) {
    }

    static Dockerfile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            String t = line.strip();
            if (t.startsWith("#") || (t.isEmpty() && current.isEmpty())) {
                continue;
            }
            if (t.endsWith("\\")) {
                current.append(t, 0, t.length() - 1).append(' ');
            } else {
                current.append(t);
                instructions.add(current.toString().strip());
                current.setLength(0);
            }
        }
        String from = null;
        String user = null;
        List<Copy> copies = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        List<String> entrypoint = List.of();
        List<String> cmd = List.of();
        for (String instruction : instructions) {
            int space = instruction.indexOf(' ');
            String keyword = instruction.substring(0, space).toUpperCase(Locale.ROOT);
            String rest = instruction.substring(space + 1).strip();
            switch (keyword) {
                case "FROM" -> from = rest;
                case "USER" -> user = rest;
                case "COPY" -> {
                    List<String> words = new ArrayList<>(List.of(rest.split("\\s+")));
                    words.removeIf(w -> w.startsWith("--") && !w.startsWith("--from"));
                    if (words.stream().noneMatch(w -> w.startsWith("--from"))) {
                        copies.add(new Copy(List.copyOf(words.subList(0, words.size() - 1)), words.get(words.size() - 1)));
                    }
                }
                case "ENV" -> env.putAll(pairs(rest));
                case "LABEL" -> labels.putAll(pairs(rest));
                case "ENTRYPOINT" -> entrypoint = execForm(rest, file);
                case "CMD" -> cmd = execForm(rest, file);
                default -> { }
            }
        }
        return new Dockerfile(from, copies, env, labels, user, entrypoint, cmd);
    }

    /** {@code k=v k2="v 2"} pairs. */
    static Map<String, String> pairs(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            String key = text.substring(i, eq);
            i = eq + 1;
            StringBuilder value = new StringBuilder();
            if (i < text.length() && text.charAt(i) == '"') {
                i++;
                while (i < text.length() && text.charAt(i) != '"') {
                    value.append(text.charAt(i++));
                }
                i++;
            } else {
                while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
                    value.append(text.charAt(i++));
                }
            }
            out.put(key, value.toString());
        }
        return out;
    }

    private static List<String> execForm(String json, Path file) {
        try {
            JsonNode array = new ObjectMapper().readTree(json);
            if (!array.isArray()) {
                throw new AssertionError(file + ": ENTRYPOINT/CMD must use the exec (JSON) form: " + json);
            }
            List<String> out = new ArrayList<>();
            array.forEach(a -> out.add(a.asText()));
            return out;
        } catch (IOException e) {
            throw new AssertionError(file + ": ENTRYPOINT/CMD must use the exec (JSON) form: " + json, e);
        }
    }

    /** The COPY whose destination is {@code destination}. */
    Copy copyTo(String destination) {
        return copies.stream().filter(c -> c.destination().equals(destination)).findFirst()
                .orElseThrow(() -> new AssertionError("nothing is copied to " + destination + ": " + copies));
    }
}
