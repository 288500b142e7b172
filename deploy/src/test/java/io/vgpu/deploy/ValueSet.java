package io.vgpu.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The value sets the chart is rendered and tested with: the defaults, and one file each under
 * {@code src/test/resources/values}.
 */
enum ValueSet {
    DEFAULT(null, 3, 1, true, true),
    SHARDS_3("shards-3.yaml", 3, 3, true, true),
    CERT_MANAGER("cert-manager.yaml", 3, 1, true, true),
    CERT_MANAGER_ISSUER("cert-manager-issuer.yaml", 3, 1, true, true),
    FAILURE_IGNORE("failure-ignore.yaml", 3, 1, true, true),
    REPLICAS_1("replicas-1.yaml", 1, 1, true, true),
    REPLICAS_5("replicas-5.yaml", 5, 1, true, true),
    CUSTOM("custom.yaml", 5, 1, true, true),
    MONITORING("monitoring.yaml", 3, 1, true, true),
    INSECURE_NO_CLIENT_CERT("insecure-no-client-cert.yaml", 3, 1, true, true),
    DEVICE_PLUGIN_ONLY("device-plugin-only.yaml", 0, 0, false, true),
    DRA("dra.yaml", 3, 1, true, true),
    DRA_EXTENDED("dra-extended.yaml", 3, 1, true, true);

    /** The release every set is rendered as. */
    static final String RELEASE = "vgpu";
    /** The namespace every set is rendered into. */
    static final String NAMESPACE = "gpu-system";

    private final String file;
    private final int replicas;
    private final int shards;
    private final boolean scheduler;
    private final boolean devicePlugin;

    ValueSet(String file, int replicas, int shards, boolean scheduler, boolean devicePlugin) {
        this.file = file;
        this.replicas = replicas;
        this.shards = shards;
        this.scheduler = scheduler;
        this.devicePlugin = devicePlugin;
    }

    /** helm arguments that select this set. */
    List<String> helmArgs() {
        List<String> args = new ArrayList<>();
        if (file != null) {
            args.add("--values");
            args.add(valuesFile().toString());
        }
        if (dra()) {
            // resource.k8s.io/v1 is served from 1.34 (the last --kube-version given wins)
            args.add("--kube-version");
            args.add(this == DRA ? "1.34.0" : "1.36.0");
        }
        return args;
    }

    Path valuesFile() {
        return Repo.deploy().resolve("src/test/resources/values").resolve(file);
    }

    /** Scheduler pods the set asks for (0 without a scheduler). */
    int replicas() {
        return replicas;
    }

    /** Scheduler names (kube-scheduler shards). */
    int shards() {
        return shards;
    }

    boolean scheduler() {
        return scheduler;
    }

    boolean devicePlugin() {
        return devicePlugin;
    }

    /** Whether /filter and /bind require kube-scheduler's client certificate (all but the documented opt-out). */
    boolean clientAuth() {
        return this != INSECURE_NO_CLIENT_CERT;
    }

    boolean dra() {
        return this == DRA || this == DRA_EXTENDED;
    }

    boolean certManager() {
        return this == CERT_MANAGER || this == CERT_MANAGER_ISSUER;
    }
}
