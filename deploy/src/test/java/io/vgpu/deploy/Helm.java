package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Runs helm on the chart. Renders are cached per value set (the chart is read-only during a run). */
final class Helm {

    static final YAMLMapper YAML = new YAMLMapper();

    private static final Map<ValueSet, Rendered> RENDERED = new ConcurrentHashMap<>();

    private Helm() {
    }

    /** One helm run's exit status and its stdout + stderr. */
    record Result(int exitCode, String output) {
    }

    /** {@code helm template} of the chart with {@code set}, parsed; fails when helm fails. */
    static Rendered template(ValueSet set) {
        return RENDERED.computeIfAbsent(set, s -> {
            Result r = templateRaw(s.helmArgs());
            if (r.exitCode() != 0) {
                throw new IllegalStateException("helm template " + s + " failed:\n" + r.output());
            }
            return new Rendered(parse(r.output()));
        });
    }

    /** {@code helm template} with extra arguments, unparsed (errors included). */
    static Result templateRaw(List<String> extraArgs) {
        List<String> args = new ArrayList<>(List.of("template", ValueSet.RELEASE, Repo.chart().toString(),
                "--namespace", ValueSet.NAMESPACE, "--kube-version", "1.33.0"));
        args.addAll(extraArgs);
        return run(args, false);
    }

    /** Runs helm with {@code args}; stderr is kept apart from stdout unless {@code mergeStderr}. */
    static Result run(List<String> args, boolean mergeStderr) {
        List<String> command = new ArrayList<>();
        command.add(Repo.helm().toString());
        command.addAll(args);
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(mergeStderr);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = mergeStderr ? new byte[0] : p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("helm did not finish: " + command);
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                text = text + new String(err, StandardCharsets.UTF_8);
            }
            return new Result(p.exitValue(), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every non-empty YAML document of a multi-document stream. */
    static List<JsonNode> parse(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode() && doc.size() > 0) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("rendered output is not YAML", e);
        }
        return docs;
    }
}
