package io.vgpu.gateway;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code vgpu-gateway} command line. {@code serve} runs the gateway (configured from
 * {@code VGPU_*} environment variables, see {@link GatewayConfig}); further subcommands (e.g.
 * {@code simulate}) are listed in {@code subcommands}.
 */
@Command(name = "vgpu-gateway", mixinStandardHelpOptions = true,
        description = "HAMi-compatible GPU-sharing scheduler gateway.",
        subcommands = {ServeCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
