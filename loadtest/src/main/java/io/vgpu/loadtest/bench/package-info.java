/**
 * The benchmark driver ({@link io.vgpu.loadtest.bench.Benchmark}): the gateway against a bare Vert.x endpoint, a
 * fast in-process API sink and the fabric8 mock API server, in one run; results in docs/benchmarks.md.
 */
package io.vgpu.loadtest.bench;
