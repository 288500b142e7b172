package io.vgpu.deviceplugin.dra.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.deviceplugin.cdi.CdiDevice;
import io.vgpu.deviceplugin.cdi.CdiJson;
import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.cdi.DeviceNode;
import io.vgpu.deviceplugin.cdi.Mount;
import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.dra.prepare.ClaimObject;
import io.vgpu.deviceplugin.dra.prepare.ClaimPlanner;
import io.vgpu.deviceplugin.dra.prepare.ClaimRef;
import io.vgpu.deviceplugin.dra.prepare.ClaimResult;
import io.vgpu.deviceplugin.dra.prepare.ClaimSource;
import io.vgpu.deviceplugin.cdi.DriverLibraries;
import io.vgpu.deviceplugin.dra.prepare.KubeletDevice;
import io.vgpu.deviceplugin.dra.prepare.NodeGpus;
import io.vgpu.deviceplugin.dra.prepare.PodClaims;
import io.vgpu.deviceplugin.dra.prepare.PrepareService;
import io.vgpu.deviceplugin.dra.prepare.PrepareSettings;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DRA prepare vectors ({@code src/test/resources/dra-prepare/*.json}, format in its README):
 * spec/dra-spec.md §7 checks 13–22 and this driver's own rules, each case a sequence of
 * NodePrepareResources / NodeUnprepareResources calls through the shipped {@link PrepareService},
 * {@link ClaimPlanner}, fabric8 mapping ({@link ClaimViews}), files ({@link LocalPreparedFiles}, CDI
 * specs on disk) and checkpoint ({@link CheckpointFile}); only the API server is a map of the case's
 * objects. {@code -Dvgpu.dra.vectors=<dir>} adds the cases of another directory.
 */
class PrepareVectorsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KubernetesSerialization KUBE = new KubernetesSerialization();
    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @TestFactory
    Stream<DynamicTest> vectors() throws IOException {
        List<Path> dirs = new ArrayList<>(List.of(Path.of("src/test/resources/dra-prepare")));
        String extra = System.getProperty("vgpu.dra.vectors", "");
        if (!extra.isBlank() && !extra.startsWith("${")) {
            dirs.add(Path.of(extra));
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Path dir : dirs) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    JsonNode doc = JSON.readTree(file.toFile());
                    for (JsonNode c : doc.path("cases")) {
                        ObjectNode withDefaults = doc.path("defaults").isObject()
                                ? ((ObjectNode) doc.get("defaults").deepCopy()).setAll((ObjectNode) c) : (ObjectNode) c;
                        tests.add(DynamicTest.dynamicTest(file.getFileName() + ": " + c.path("name").asText(),
                                () -> run(withDefaults)));
                    }
                }
            }
        }
        assertThat(tests).as("vector cases").hasSizeGreaterThan(10);
        return tests.stream();
    }

    private static void run(JsonNode c) throws Exception {
        Path root = Files.createTempDirectory("dra-vector");
        Case kase = new Case(c, root);
        for (JsonNode step : c.path("steps")) {
            kase.step(step);
        }
    }

    /** One case's world: the API objects, the host directories, the service. */
    private static final class Case implements ClaimSource {
        private final JsonNode c;
        private final Path root;
        private final Map<String, JsonNode> claims = new ConcurrentHashMap<>();
        private final Map<String, JsonNode> pods = new ConcurrentHashMap<>();
        private final CdiSpecFiles specs;
        private final String node;
        private final PrepareSettings settings;
        private final NodeGpus gpus;
        private final DriverLibraries.Mode mode;
        private PrepareService service;

        Case(JsonNode c, Path root) throws Exception {
            this.c = c;
            this.root = root;
            this.node = c.path("node").path("name").asText("node-1");
            c.path("claims").forEach(o -> claims.put(key(o), o));
            c.path("pods").forEach(o -> pods.put(key(o), o));
            this.specs = new CdiSpecFiles(root.resolve("run/cdi"));
            for (JsonNode s : c.path("staticSpecs")) {
                CdiSpec spec = CdiJson.fromTree(s);
                new CdiSpecFiles(root.resolve("etc/cdi")).write(spec.kind().replace('/', '-') + ".json", spec);
            }
            for (JsonNode f : c.path("hostFiles")) {
                Path file = root.resolve("host").resolve(f.asText().substring(1));
                Files.createDirectories(file.getParent());
                Files.writeString(file, "x");
            }
            JsonNode n = c.path("node");
            NodeSettings nodeSettings = new NodeSettings(new NvidiaSettings("nvidia.com/gpu", n.path("splitCount").asInt(10),
                    n.path("memoryScaling").asDouble(1), n.path("coreScaling").asDouble(1), n.path("preConfiguredMiB").asLong(0),
                    n.path("libCudaLogLevel").asText(""), false, n.path("disableCoreLimit").asBoolean(false)),
                    "hami-core", false, new DeviceFilter(strings(n.path("filterUuids")), List.of()));
            this.mode = DriverLibraries.Mode.valueOf(c.path("libraries").asText("auto").toUpperCase(Locale.ROOT));
            this.settings = PrepareSettings.of(node, "/usr/local", n.path("libVersion").asText(""), nodeSettings, mode);
            this.gpus = NodeGpus.of(FakeGpuSource.parse(c.path("gpus").toString(), "gpus"), nodeSettings);
            start();
        }

        private void start() throws Exception {
            LocalPreparedFiles files = new LocalPreparedFiles(new LocalHostFiles(root.resolve("host"), POOL), specs,
                    List.of(root.resolve("etc/cdi"), root.resolve("run/cdi")), settings.hookPaths(), POOL);
            service = new PrepareService(new ClaimPlanner(settings, gpus), mode, this, files,
                    new CheckpointFile(root.resolve("state/checkpoint.json"), POOL));
            service.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }

        void step(JsonNode step) throws Exception {
            String what = step.path("comment").asText(step.toString());
            if (step.has("prepare")) {
                Map<String, ClaimResult> got = service.prepare(refs(step.get("prepare"))).toCompletableFuture()
                        .get(20, TimeUnit.SECONDS);
                assertThat(got.keySet()).as("%s: one entry per claim", what)
                        .containsExactlyInAnyOrderElementsOf(uids(step.get("prepare")));
                step.path("expect").properties().forEach(e -> expectPrepared(what, e.getKey(), e.getValue(), got.get(e.getKey())));
            } else if (step.has("unprepare")) {
                Map<String, String> got = service.unprepare(refs(step.get("unprepare"))).toCompletableFuture()
                        .get(20, TimeUnit.SECONDS);
                assertThat(got.keySet()).as("%s: one entry per claim", what)
                        .containsExactlyInAnyOrderElementsOf(uids(step.get("unprepare")));
                step.path("expect").properties().forEach(e -> assertThat(got.get(e.getKey())).as("%s: %s", what, e.getKey())
                        .contains(e.getValue().asText()));
                got.forEach((uid, error) -> {
                    if (!step.path("expect").has(uid)) {
                        assertThat(error).as("%s: %s", what, uid).isEmpty();
                    }
                });
            } else if (step.has("deleteClaim")) {
                claims.remove(step.get("deleteClaim").asText());
            } else if (step.has("putClaim")) {
                claims.put(key(step.get("putClaim")), step.get("putClaim"));
            } else if (step.has("restart")) {
                start();
            } else if (step.has("removeSpec")) {
                Files.delete(specs.path("k8s.gpu.vgpu.io-claim_" + step.get("removeSpec").asText() + ".json"));
            } else if (step.has("files")) {
                expectFiles(what, step.get("files"));
            } else {
                throw new IllegalArgumentException("unknown step " + step);
            }
        }

        private void expectPrepared(String what, String uid, JsonNode expect, ClaimResult got) {
            String where = what + ": claim " + uid;
            if (expect.has("error")) {
                assertThat(got).as(where).isInstanceOf(ClaimResult.Failed.class);
                assertThat(((ClaimResult.Failed) got).error()).as(where).contains(expect.get("error").asText());
                return;
            }
            assertThat(got).as(where).isInstanceOf(ClaimResult.Prepared.class);
            List<KubeletDevice> devices = ((ClaimResult.Prepared) got).devices();
            List<Map<String, Object>> shown = devices.stream().map(Case::show).toList();
            assertThat((Object) JSON.valueToTree(shown)).as(where + " devices").isEqualTo(expect.get("devices"));
            if (expect.has("cdi")) {
                CdiSpec spec = read(uid).orElseThrow(() -> new AssertionError(where + ": no CDI spec on disk"));
                assertThat(spec.kind()).isEqualTo("k8s.gpu.vgpu.io/claim");
                expect.get("cdi").properties().forEach(d -> expectDevice(where, spec, d.getKey(), d.getValue()));
                if (expect.has("cdiVersion")) {
                    assertThat(spec.cdiVersion()).as(where).isEqualTo(expect.get("cdiVersion").asText());
                }
                assertThat(spec.devices()).as(where + " CDI devices").hasSize(expect.get("cdi").size());
            }
        }

        private static void expectDevice(String where, CdiSpec spec, String name, JsonNode expect) {
            CdiDevice d = spec.device(name);
            assertThat(d).as(where + " CDI device " + name).isNotNull();
            if (expect.has("env")) {
                assertThat(d.containerEdits().env()).as(where + " env of " + name).containsExactlyElementsOf(strings(expect.get("env")));
            }
            if (expect.has("envIncludes")) {
                assertThat(d.containerEdits().env()).as(where + " env of " + name).containsAll(strings(expect.get("envIncludes")));
            }
            if (expect.has("envExcludes")) {
                List<String> names = d.containerEdits().env().stream().map(e -> e.substring(0, e.indexOf('='))).toList();
                assertThat(names).as(where + " env of " + name).doesNotContainAnyElementsOf(strings(expect.get("envExcludes")));
            }
            if (expect.has("deviceNodes")) {
                assertThat(d.containerEdits().deviceNodes().stream().map(DeviceNode::path).toList())
                        .as(where + " device nodes of " + name).containsExactlyElementsOf(strings(expect.get("deviceNodes")));
            }
            if (expect.has("mounts")) {
                List<String> mounts = d.containerEdits().mounts().stream().map(Case::show).toList();
                assertThat(mounts).as(where + " mounts of " + name).containsExactlyElementsOf(strings(expect.get("mounts")));
            }
        }

        private void expectFiles(String what, JsonNode files) throws IOException {
            if (files.has("specs")) {
                List<String> onDisk = new ArrayList<>();
                if (Files.isDirectory(specs.directory())) {
                    try (Stream<Path> l = Files.list(specs.directory())) {
                        l.map(p -> p.getFileName().toString()).sorted().forEach(onDisk::add);
                    }
                }
                assertThat(onDisk).as(what + ": spec files").containsExactlyElementsOf(strings(files.get("specs")).stream()
                        .map(uid -> "k8s.gpu.vgpu.io-claim_" + uid + ".json").sorted().toList());
            }
            if (files.has("claimDirs")) {
                Path claimsDir = root.resolve("host/usr/local/vgpu/claims");
                List<String> dirs = new ArrayList<>();
                if (Files.isDirectory(claimsDir)) {
                    try (Stream<Path> l = Files.list(claimsDir)) {
                        l.map(p -> p.getFileName().toString()).sorted().forEach(dirs::add);
                    }
                }
                assertThat(dirs).as(what + ": claim directories").containsExactlyElementsOf(
                        strings(files.get("claimDirs")).stream().sorted().toList());
            }
            if (files.has("checkpoint")) {
                Path checkpoint = root.resolve("state/checkpoint.json");
                Map<String, ?> saved = Files.exists(checkpoint) ? CheckpointJson.decode(Files.readString(checkpoint)) : Map.of();
                assertThat(saved.keySet()).as(what + ": checkpoint").containsExactlyInAnyOrderElementsOf(strings(files.get("checkpoint")));
            }
        }

        private Optional<CdiSpec> read(String uid) {
            try {
                return specs.read("k8s.gpu.vgpu.io-claim_" + uid + ".json");
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public CompletionStage<Optional<ClaimObject>> claim(ClaimRef ref) {
            JsonNode o = claims.get(ref.namespace() + "/" + ref.name());
            return CompletableFuture.supplyAsync(() -> Optional.ofNullable(o)
                    .map(j -> ClaimViews.claim(KUBE.unmarshal(j.toString(), ResourceClaim.class))), POOL);
        }

        @Override
        public CompletionStage<Optional<PodClaims>> pod(String namespace, String name) {
            JsonNode o = pods.get(namespace + "/" + name);
            return CompletableFuture.supplyAsync(() -> Optional.ofNullable(o)
                    .map(j -> ClaimViews.pod(KUBE.unmarshal(j.toString(), Pod.class))), POOL);
        }

        private static Map<String, Object> show(KubeletDevice d) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("requestNames", d.requestNames());
            out.put("pool", d.poolName());
            out.put("device", d.deviceName());
            out.put("cdiDeviceIds", d.cdiDeviceIds());
            d.shareId().ifPresent(s -> out.put("shareId", s));
            return out;
        }

        private static String show(Mount m) {
            return m.hostPath() + " -> " + m.containerPath() + " " + String.join(",", m.options());
        }

        private static String key(JsonNode o) {
            return o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText();
        }

        private static List<ClaimRef> refs(JsonNode list) {
            List<ClaimRef> out = new ArrayList<>();
            list.forEach(r -> out.add(new ClaimRef(r.path("namespace").asText(), r.path("name").asText(), r.path("uid").asText())));
            return out;
        }

        private static List<String> uids(JsonNode list) {
            List<String> out = new ArrayList<>();
            list.forEach(r -> out.add(r.path("uid").asText()));
            return out.stream().distinct().toList();
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
