/**
 * The chaos harness of the multi-replica issue: N gateway JVMs forming one Hazelcast cluster against a mock
 * Kubernetes API server, several simulated kube-schedulers, kill -9 and restarts, a replica with a stale view, and
 * an invariant checker over the API server's truth and every replica's view. Entry points: {@link
 * io.vgpu.loadtest.chaos.ChaosMain} (command line) and {@link io.vgpu.loadtest.chaos.ChaosRun#run} (tests).
 * Results and the design they prove: docs/reliability.md.
 */
package io.vgpu.loadtest.chaos;
