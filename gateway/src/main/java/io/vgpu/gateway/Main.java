package io.vgpu.gateway;

import io.vgpu.gateway.simulate.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The gateway's command line and its only composition root. {@code simulate} runs the scheduling core
 * on a synthetic cluster in-process; the HTTP service ({@code serve}) is added by the gateway issue.
 */
@Command(name = "vgpu-gateway", mixinStandardHelpOptions = true, version = "vgpu-gateway 0.1.0",
        description = "HAMi-compatible, leader-free GPU-sharing control plane for Kubernetes.",
        subcommands = {SimulateCommand.class})
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
