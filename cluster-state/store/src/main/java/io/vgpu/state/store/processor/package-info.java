/**
 * One entry processor per change of the shared state. Each is a small record that applies one pure transition of
 * {@link io.vgpu.state.model.NodeState} or {@link io.vgpu.state.model.QuotaState} to its key, writes a NEW value only
 * when something changed, and returns the transition's outcome. Deterministic (the caller's time is a field) because
 * Hazelcast runs it again on every backup; idempotent because a caller may retry after a lost response.
 */
package io.vgpu.state.store.processor;
