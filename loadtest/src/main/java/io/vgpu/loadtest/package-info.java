/** Gatling simulations and the benchmark driver. Filled by the load-test issue. */
package io.vgpu.loadtest;
