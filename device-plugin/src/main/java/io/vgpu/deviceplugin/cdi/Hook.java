package io.vgpu.deviceplugin.cdi;

import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * An OCI hook a CDI edit adds.
 *
 * @param hookName one of {@code createRuntime}, {@code createContainer}, {@code startContainer},
 *                 {@code poststart}, {@code poststop} (also {@code prestart}, deprecated by OCI)
 * @param path     absolute path of the executable
 * @param args     argv, conventionally starting with the program name
 * @param env      {@code NAME=VALUE} entries
 * @param timeout  seconds
 */
record Hook(String hookName, String path, List<String> args, List<String> env, OptionalInt timeout) {

    private static final Set<String> NAMES = Set.of("prestart", "createRuntime", "createContainer", "startContainer",
            "poststart", "poststop");

    /** @throws IllegalArgumentException for an unknown hook name or a relative path */
    public Hook {
        if (!NAMES.contains(hookName)) {
            throw new IllegalArgumentException("unknown CDI hook name " + hookName + " (known: " + NAMES + ")");
        }
        CdiNames.requireAbsolute(path, "hook path");
        args = List.copyOf(args);
        env = List.copyOf(env);
        timeout = timeout == null ? OptionalInt.empty() : timeout;
    }

    /** A hook with argv and no env or timeout. */
    public static Hook of(String hookName, String path, List<String> args) {
        return new Hook(hookName, path, args, List.of(), OptionalInt.empty());
    }
}
