package io.vgpu.gateway.e2e;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One real gateway over the mock API server ({@link E2eCluster}) for a test class: started before its tests, closed
 * after them; after each test, the gateway must not have logged an ERROR. Register it on a static field:
 * {@code @RegisterExtension static final E2eGateway GATEWAY = new E2eGateway("VGPU_X", "value");}.
 */
final class E2eGateway implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

    private final E2eCluster.Launch launch;
    private final String[] env;
    private ErrorLogs errors;
    private E2eCluster cluster;

    /** @param env extra {@code VGPU_*} settings of the gateway, as name, value pairs */
    E2eGateway(String... env) {
        this(E2eCluster.Launch.defaults(), env);
    }

    /**
     * @param launch how the gateway is started (Vert.x options, kubeconfig user)
     * @param env    extra {@code VGPU_*} settings of the gateway, as name, value pairs
     */
    E2eGateway(E2eCluster.Launch launch, String... env) {
        this.launch = launch;
        this.env = env.clone();
    }

    /** The running cluster (between the class's first and last test). */
    E2eCluster cluster() {
        return cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        errors = ErrorLogs.attach();
        cluster = E2eCluster.start(launch, env);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertThat(errors.errors()).as("ERROR logs of the gateway").isEmpty();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            errors.close();
        }
    }
}
