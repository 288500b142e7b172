package io.vgpu.simulate;

import io.vgpu.gateway.Main;
import picocli.CommandLine;

import java.util.Arrays;

/**
 * The simulator's runnable jar ({@code gateway/simulate/target/vgpu-simulate-all.jar}, run by
 * {@code scripts/simulate.sh}): {@code java -jar vgpu-simulate-all.jar [options]} is {@link SimulateCommand}, with the
 * gateway's error handling (a bad option: one {@code error:} line, exit status 2). The simulator left the gateway's
 * jar, which ships no test doubles; a leading {@code simulate} (the gateway jar's old subcommand) is accepted, so
 * that {@code java -jar vgpu-gateway-all.jar simulate …} carries over by changing only the jar.
 */
public final class SimulateMain {

    private SimulateMain() {
    }

    /** Entry point: runs the simulation and exits with its status. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(arguments(args)));
    }

    /** The {@code simulate} command line with the gateway's error handling. */
    public static CommandLine commandLine() {
        return Main.withErrorHandling(new CommandLine(new SimulateCommand()));
    }

    /** The arguments without the old subcommand word, if they start with it. */
    static String[] arguments(String[] args) {
        return args.length > 0 && "simulate".equals(args[0]) ? Arrays.copyOfRange(args, 1, args.length) : args;
    }
}
