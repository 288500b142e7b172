package io.vgpu.gateway;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code vgpu-gateway} command line and its only composition root. {@code serve} runs the gateway
 * (configured from {@code VGPU_*} environment variables, see {@link GatewayConfig}). The simulator is not part of
 * this jar: it is the module {@code gateway/simulate} with a runnable jar of its own.
 */
@Command(name = "vgpu-gateway", mixinStandardHelpOptions = true, version = "vgpu-gateway 0.1.0",
        description = "HAMi-compatible, leader-free GPU-sharing control plane for Kubernetes.",
        subcommands = {ServeCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Entry point: parses the command line and exits with the command's status. */
    public static void main(String[] args) {
        System.exit(launch(args, ViewFeeds.DIRECT));
    }

    /**
     * Runs the command line with {@code serve} built on the given view feeds (the composition seam through which the
     * chaos harness launches its stale replica; {@link #main} passes {@link ViewFeeds#DIRECT}).
     *
     * @return the command's exit status
     */
    public static int launch(String[] args, ViewFeeds feeds) {
        // Hazelcast logs through java.util.logging unless told otherwise; route it to the one backend (logback)
        if (System.getProperty("hazelcast.logging.type") == null) {
            System.setProperty("hazelcast.logging.type", "slf4j");
        }
        return commandLine(feeds).execute(args);
    }

    /** The command line of {@link #main}, with {@link #withErrorHandling its error handling}. */
    public static CommandLine commandLine() {
        return commandLine(ViewFeeds.DIRECT);
    }

    private static CommandLine commandLine(ViewFeeds feeds) {
        return withErrorHandling(new CommandLine(new Main(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                return type == ServeCommand.class ? type.cast(new ServeCommand(System.getenv(), feeds))
                        : CommandLine.defaultFactory().create(type);
            }
        }));
    }

    /**
     * Installs the gateway's error handling on {@code cli} (also used by the simulator's command line): a bad option
     * value or an unparsable command line prints one {@code error: ...} line and yields exit status 2; any other
     * failure prints its stack trace and yields 1.
     *
     * @return {@code cli}
     */
    public static CommandLine withErrorHandling(CommandLine cli) {
        // bad option values (IllegalArgumentException from validation) are usage errors, not crashes
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("error: " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            // anything else is a crash: report it and still exit, so non-daemon threads cannot keep the JVM up
            e.printStackTrace(commandLine.getErr());
            return CommandLine.ExitCode.SOFTWARE;
        });
        // an unparsable command line: one line and a pointer to --help, not the whole usage text
        cli.setParameterExceptionHandler((e, parsedArgs) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println("error: " + e.getMessage() + " (see '" + failed.getCommandSpec().qualifiedName()
                    + " --help')");
            return CommandLine.ExitCode.USAGE;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
