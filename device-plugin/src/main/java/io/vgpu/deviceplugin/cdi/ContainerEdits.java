package io.vgpu.deviceplugin.cdi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The OCI edits of a CDI spec or device ({@code containerEdits}): environment variables
 * ({@code NAME=VALUE}, appended; a later value of a name replaces an earlier one in the container),
 * device nodes, mounts and hooks, each in the order the runtime applies them.
 *
 * @param env         {@code NAME=VALUE} entries
 * @param deviceNodes device nodes to create in the container
 * @param mounts      bind mounts
 * @param hooks       OCI hooks
 */
public record ContainerEdits(List<String> env, List<DeviceNode> deviceNodes, List<Mount> mounts, List<Hook> hooks) {

    /** No edit. */
    public static final ContainerEdits NONE = new ContainerEdits(List.of(), List.of(), List.of(), List.of());

    /** @throws IllegalArgumentException for an env entry without {@code =} or with an empty name */
    public ContainerEdits {
        env = List.copyOf(env);
        deviceNodes = List.copyOf(deviceNodes);
        mounts = List.copyOf(mounts);
        hooks = List.copyOf(hooks);
        for (String e : env) {
            if (e.indexOf('=') <= 0) {
                throw new IllegalArgumentException("CDI env entry must be NAME=VALUE, got \"" + e + "\"");
            }
        }
    }

    /** True when there is nothing to apply. */
    public boolean isEmpty() {
        return env.isEmpty() && deviceNodes.isEmpty() && mounts.isEmpty() && hooks.isEmpty();
    }

    /** A builder for edits in the order they are added. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects edits in order. */
    public static final class Builder {
        private final List<String> env = new ArrayList<>();
        private final List<DeviceNode> deviceNodes = new ArrayList<>();
        private final List<Mount> mounts = new ArrayList<>();
        private final List<Hook> hooks = new ArrayList<>();

        /** Appends {@code name=value}. */
        public Builder env(String name, String value) {
            env.add(Objects.requireNonNull(name, "name") + "=" + Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Appends a device node. */
        public Builder deviceNode(DeviceNode node) {
            deviceNodes.add(Objects.requireNonNull(node, "node"));
            return this;
        }

        /** Appends a mount. */
        public Builder mount(Mount mount) {
            mounts.add(Objects.requireNonNull(mount, "mount"));
            return this;
        }

        /** Appends a hook. */
        public Builder hook(Hook hook) {
            hooks.add(Objects.requireNonNull(hook, "hook"));
            return this;
        }

        /** The edits collected. */
        public ContainerEdits build() {
            return new ContainerEdits(env, deviceNodes, mounts, hooks);
        }
    }
}
