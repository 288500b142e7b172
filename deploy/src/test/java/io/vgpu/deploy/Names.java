package io.vgpu.deploy;

/** Object names of a render with release {@link ValueSet#RELEASE} ("vgpu": full name "vgpu-vgpu-gateway"). */
final class Names {

    static final String FULL = ValueSet.RELEASE + "-vgpu-gateway";
    static final String SCHEDULER = FULL + "-scheduler";
    static final String HAZELCAST = SCHEDULER + "-hz";
    static final String TLS_SECRET = SCHEDULER + "-tls";
    static final String CLIENT_TLS_SECRET = SCHEDULER + "-client-tls";
    static final String DEVICE_CONFIG = SCHEDULER + "-device";
    static final String KUBE_SCHEDULER_CONFIG = SCHEDULER + "-config";
    static final String DEVICE_PLUGIN = FULL + "-device-plugin";
    static final String WEBHOOK = FULL + "-webhook";

    private Names() {
    }
}
