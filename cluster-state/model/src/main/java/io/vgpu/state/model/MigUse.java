package io.vgpu.state.model;

/**
 * A MIG instance occupying a placement on a card, by profile name.
 *
 * @param profile   MIG profile name
 * @param placement slices the instance occupies
 */
public record MigUse(String profile, MigPlacement placement) {
}
