package io.vgpu.simulate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code simulate} command line: option errors, help, and the in-process core mode. */
class SimulateCommandTest {

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        CommandLine cli = SimulateMain.commandLine();
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(out, true));
        int code = cli.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown mode         | --mode=warp                | --mode must be http, core or dra",
        "no concurrency       | --concurrency=0            | --concurrency must be at least 1",
        "negative delay       | --device-plugin-delay=-1   | --device-plugin-delay must not be negative",
        "unknown node policy  | --node-policy=fastest      | --node-policy must be binpack or spread",
        "unknown GPU model    | --models=K80               | K80",
        "no nodes             | --nodes=0                  | nodes, gpus per node and split count must be >= 1",
        "port out of range    | --port=70000               | --port and --metrics-port must be 0..65535",
        "neither count nor dir | --pods=many                | --pods must be a pod count or a directory of manifests: many is neither",
        "no in-flight         | --max-in-flight=0          | --max-in-flight must be at least 1",
        "unknown option       | --warp-drive               | Unknown option: '--warp-drive'",
        "compare w/o report   | --compare-policies         | --compare-policies needs --report FILE",
        "modes w/o report     | --compare-modes            | --compare-modes needs --report FILE",
    })
    void badOptionsAreOneLineAndExitStatus2(String name, String option, String message) {
        Result r = run(option);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: ").contains(message);
        assertThat(r.err().strip().lines()).hasSize(1);
    }

    @Test
    void aDirectoryOfManifestsIsForServeOnly(@TempDir Path dir) {
        Result r = run("--pods", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("a directory of manifests is preloaded for --serve");
    }

    @Test
    void aDirectoryWithoutPodsOrWithOtherKindsIsRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        assertThat(run("--serve", "--pods", dir.toString()).err()).contains("no Pod in any");
        Files.writeString(dir.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n");
        Result r = run("--serve", "--pods", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("cm.yaml: ConfigMap c is neither a Pod nor a Node");
    }

    @Test
    void anInvalidGatewaySettingOfTheEnvironmentIsOneLineAndExitStatus2() {
        CommandLine cli = SimulateMain.commandLine();
        SimulateCommand simulate = cli.getCommand();
        simulate.environment = Map.of("VGPU_NODE_LOCK_WAIT", "forever");
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute("--mode", "core", "--pods", "1")).isEqualTo(2);
        assertThat(err.toString()).startsWith("error: ").contains("VGPU_NODE_LOCK_WAIT=\"forever\"");
        assertThat(err.toString().strip().lines()).hasSize(1);
    }

    @Test
    void theGatewayJarsOldSubcommandWordIsAccepted() {
        assertThat(SimulateMain.arguments(new String[] {"simulate", "--mode", "core"})).containsExactly("--mode", "core");
        assertThat(SimulateMain.arguments(new String[] {"--mode", "core"})).containsExactly("--mode", "core");
    }

    @Test
    void helpListsTheModesAndTheHttpOptions() {
        Result r = run("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("--mode", "--concurrency", "--device-plugin-delay", "--serve", "--port",
                "--pods", "--seed", "default: http", "--max-in-flight", "N|DIR", "VGPU_NODE_LOCK_WAIT",
                "VGPU_RESERVATION_TTL");
        // the help text is a constant (annotations need one): it must name exactly the settings passed on
        assertThat(SimulateCommand.LOCAL_KEYS_TEXT).isEqualTo(String.join(", ", SimulatedCluster.LOCAL_KEYS));
    }

    @Test
    void coreModeSchedulesInProcessAndPrintsTheTable() {
        Result r = run("--mode", "core", "--nodes", "4", "--pods", "60", "--seed", "9");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("simulate: 4 nodes x 8 GPUs", "progress: 100% (60/60)", "core (in-process",
                "pods submitted                     60", "latency decision p50 / p99", "fragmentation (R = ");
    }

    @Test
    void reportWritesOneSelfContainedHtmlFileWithBothPoliciesWhenAskedToCompare(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report.html");

        Result r = run("--mode", "core", "--nodes", "4", "--pods", "40", "--seed", "3",
                "--report", file.toString(), "--compare-policies");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("simulate: binpack nodes, spread GPUs", "simulate: spread nodes, spread GPUs",
                "report written to " + file.toAbsolutePath());
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("4 nodes x 8 GPUs, 40 pods", "mode core, seed 3",
                "binpack nodes, spread GPUs", "spread nodes, spread GPUs", "<svg");
    }

    @Test
    void reportCannotBeCombinedWithServe(@TempDir Path dir) {
        Result r = run("--serve", "--report", dir.resolve("r.html").toString());

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--report runs a workload; it cannot be combined with --serve");
    }

    @Test
    void draModeSchedulesThePodStreamAndPrintsItsTable() {
        Result r = run("--mode", "dra", "--nodes", "3", "--gpus-per-node", "2", "--pods", "20", "--models", "T4");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("dra (claim templates, claim controller, structured allocator; prepare 0 ms")
                .contains("3 nodes, 6 GPUs").contains("pods submitted                     20")
                .contains("latency prepare (bound → prepared)");
    }

    @Test
    void compareModesPutsExtenderAndDraSideBySideAndStatesTheModel(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("r.html");
        Result r = run("--mode", "core", "--nodes", "3", "--gpus-per-node", "2", "--pods", "20", "--models", "T4",
                "--report", report.toString(), "--compare-modes", "--compare-policies");

        assertThat(r.code()).as(r.err()).isZero();
        String html = Files.readString(report);
        assertThat(html).contains("Side by side").contains("extender, binpack nodes, spread GPUs")
                .contains("DRA, binpack nodes").contains("extender, spread nodes, spread GPUs").contains("DRA, spread nodes")
                .contains("neither mode includes kube-scheduler&#39;s own cycle")
                .contains("--device-plugin-delay per claim in prepare, without a lock");
    }
}
