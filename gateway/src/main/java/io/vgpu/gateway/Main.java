package io.vgpu.gateway;

import io.vgpu.gateway.simulate.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code vgpu-gateway} command line and its only composition root. {@code serve} runs the gateway
 * (configured from {@code VGPU_*} environment variables, see {@link GatewayConfig}); {@code simulate}
 * runs the scheduling core on a synthetic cluster in-process.
 */
@Command(name = "vgpu-gateway", mixinStandardHelpOptions = true, version = "vgpu-gateway 0.1.0",
        description = "HAMi-compatible, leader-free GPU-sharing control plane for Kubernetes.",
        subcommands = {ServeCommand.class, SimulateCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Entry point: parses the command line and exits with the command's status. */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        // bad option values (IllegalArgumentException from validation) are usage errors, not crashes
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("error: " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
