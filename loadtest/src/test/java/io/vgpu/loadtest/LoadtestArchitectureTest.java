package io.vgpu.loadtest;

import io.vgpu.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

/** The load test and chaos harness packages ({@code bench}, {@code chaos}) depend one way. */
class LoadtestArchitectureTest {

    @Test
    void packagesFormNoCycle() {
        PackageCycles.assertNoneUnder("io.vgpu.loadtest");
    }
}
