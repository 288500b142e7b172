package io.vgpu.gateway.core.health;

/**
 * The two answers of HAMi's {@code CheckHealth} for one node and vendor (spec §7.1 step 4b).
 *
 * @param healthy    false ⇒ clean the node up and drop its devices of this vendor from the cache
 * @param needUpdate true ⇒ re-read the register annotation into the cache
 */
public record HealthVerdict(boolean healthy, boolean needUpdate) {
}
